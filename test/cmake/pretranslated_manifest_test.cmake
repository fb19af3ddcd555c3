# cmake -DSCRIPT=<cmake/GPUSSPretranslatedManifest.cmake> -DWORK=<scratch dir> -P pretranslated_manifest_test.cmake
#
# The manifest of a pre-translated folder (GPUSSPretranslatedManifest.cmake): written from a depfile, it
# names the project's files and not the system's or the build's; the check passes on the same tree, and
# fails, naming the file, once a header the translation read has changed or is gone.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/root/src" "${WORK}/root/build/include")
file(WRITE "${WORK}/root/src/prog.c" "int main(void) { return 0; }\n")
file(WRITE "${WORK}/root/src/tasks.h" "/* tasks */\n")
file(WRITE "${WORK}/root/build/include/version.h" "/* generated */\n")
file(WRITE "${WORK}/prog.c.d"
     "${WORK}/root/build/prog.c: \\\n  ${WORK}/root/src/prog.c \\\n  /usr/include/stdio.h \\\n"
     "  ${WORK}/root/src/tasks.h ${WORK}/root/build/include/version.h\n")
set(manifest "${WORK}/sources.sha256")

function(run mode out_result out_error)
  execute_process(COMMAND ${CMAKE_COMMAND} -DMODE=${mode} "-DROOT=${WORK}/root" "-DBINARY_DIR=${WORK}/root/build"
                          "-DMANIFEST=${manifest}" "-DDEPFILES=${WORK}/prog.c.d|" -DPROGRAM=prog -P "${SCRIPT}"
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  set(${out_result} "${result}" PARENT_SCOPE)
  set(${out_error} "${error}" PARENT_SCOPE)
endfunction()

run(write result error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "write failed: ${error}")
endif()
file(STRINGS "${manifest}" entries)
list(LENGTH entries count)
string(JOIN "\n" listed ${entries})
if(NOT count EQUAL 2 OR NOT listed MATCHES "  src/prog.c" OR NOT listed MATCHES "  src/tasks.h")
  message(FATAL_ERROR "the manifest should name src/prog.c and src/tasks.h only:\n${listed}")
endif()

run(check result error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the check failed on the tree it was written from: ${error}")
endif()

file(APPEND "${WORK}/root/src/tasks.h" "/* changed */\n")
run(check result error)
if(result EQUAL 0 OR NOT error MATCHES "src/tasks.h")
  message(FATAL_ERROR "a changed header passed the check (result ${result}): ${error}")
endif()

file(REMOVE "${WORK}/root/src/tasks.h")
run(check result error)
if(result EQUAL 0 OR NOT error MATCHES "src/tasks.h \\(gone\\)")
  message(FATAL_ERROR "a removed header passed the check (result ${result}): ${error}")
endif()
message(STATUS "pretranslated manifest: PASS")
