# GPUSS.cmake: build programs annotated with `#pragma css` (GPUSs).
#
#   gpuss_add_executable(<name> SOURCES <files...>
#                        [INCLUDE_DIRECTORIES <dirs...>]
#                        [COMPILE_DEFINITIONS <defs...>]
#                        [LINK_LIBRARIES <libs...>])
#
# Translates each source (C, C++ or .cu) with gpuss-translate at build time
# into ${CMAKE_CURRENT_BINARY_DIR}/gpuss-translated/<name>/<basename>, compiles
# the translated sources and links libgpuss (and CUDA::cudart, CUDA::cublas
# when a .cu source is present). The translation sees the same include
# directories and definitions. With GPUSS_PRETRANSLATED_DIR set, the sources
# are taken from ${GPUSS_PRETRANSLATED_DIR}/<name>/<basename> and no
# translator is needed. The target `gpuss-pretranslated` gathers every
# translated source into ${CMAKE_BINARY_DIR}/pretranslated/<name>/, with
# sources.sha256, the hashes of the project files the translation read; a
# build from such a folder stops if its own copies of them differ.
#
# Works inside the GPUSs build and, through find_package(GPUSS), outside it.
include_guard(GLOBAL)

set(GPUSS_PRETRANSLATED_DIR "${GPUSS_PRETRANSLATED_DIR}" CACHE PATH
    "Take translated sources from this folder instead of running gpuss-translate")
set(GPUSS_NVCC_FLAGS "" CACHE STRING "Extra nvcc flags for translated .cu sources (e.g. -arch=sm_90)")

if(NOT TARGET gpuss-pretranslated)
  add_custom_target(gpuss-pretranslated
    COMMENT "Translated sources gathered in ${CMAKE_BINARY_DIR}/pretranslated")
endif()

function(_gpuss_resolve out_translate out_lib)
  if(TARGET gpuss-translate)
    set(${out_translate} gpuss-translate PARENT_SCOPE)
  elseif(TARGET GPUSS::gpuss-translate)
    set(${out_translate} GPUSS::gpuss-translate PARENT_SCOPE)
  else()
    set(${out_translate} "" PARENT_SCOPE)
  endif()
  if(TARGET gpuss)
    set(${out_lib} gpuss PARENT_SCOPE)
  else()
    set(${out_lib} GPUSS::gpuss PARENT_SCOPE)
  endif()
endfunction()

function(gpuss_add_executable name)
  # Writes and checks which sources a pre-translated folder was made from.
  set(GPUSS_MANIFEST_SCRIPT "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GPUSSPretranslatedManifest.cmake")
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;LINK_LIBRARIES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuss_add_executable(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "gpuss_add_executable(${name}): no SOURCES")
  endif()
  _gpuss_resolve(translate lib)
  if(NOT GPUSS_PRETRANSLATED_DIR AND NOT translate)
    message(WARNING "gpuss_add_executable(${name}): gpuss-translate is not available (Clang 19 not found) and "
                    "GPUSS_PRETRANSLATED_DIR is empty: ${name} is not built")
    return()
  endif()

  set(include_dirs "")
  foreach(dir IN LISTS ARG_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND include_dirs "${dir}")
  endforeach()
  set(flags "")
  foreach(dir IN LISTS include_dirs)
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(def IN LISTS ARG_COMPILE_DEFINITIONS)
    list(APPEND flags "-D${def}")
  endforeach()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/gpuss-translated/${name}")
  set(translated "")
  set(cuda_sources "")
  set(source_dirs "")
  set(basenames "")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(base "${src}" NAME)
    get_filename_component(src_dir "${abs}" DIRECTORY)
    if(base IN_LIST basenames)
      message(FATAL_ERROR "gpuss_add_executable(${name}): two sources are named ${base}")
    endif()
    list(APPEND basenames "${base}")
    list(APPEND source_dirs "${src_dir}")
    set(lang_flags "")
    if(base MATCHES "\\.(cpp|cc|cxx|C|c\\+\\+)$" AND CMAKE_CXX_STANDARD)
      set(lang_flags "-std=c++${CMAKE_CXX_STANDARD}")
    endif()
    if(GPUSS_PRETRANSLATED_DIR)
      set(out "${GPUSS_PRETRANSLATED_DIR}/${name}/${base}")
      if(NOT EXISTS "${out}")
        message(FATAL_ERROR "gpuss_add_executable(${name}): ${out} does not exist "
                            "(build the gpuss-pretranslated target where Clang is, and copy its folder)")
      endif()
    else()
      set(out "${out_dir}/${base}")
      add_custom_command(OUTPUT "${out}"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${out_dir}"
        COMMAND ${translate} "${abs}" -o "${out}" --depfile "${out}.d" -- ${flags} ${lang_flags} "-I${src_dir}"
        DEPENDS "${abs}" ${translate}
        DEPFILE "${out}.d"
        COMMENT "gpuss-translate ${src}"
        VERBATIM COMMAND_EXPAND_LISTS)
    endif()
    list(APPEND translated "${out}")
    if(base MATCHES "\\.cu$")
      list(APPEND cuda_sources "${out}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  set(host_sources "${translated}")
  set(objects "")
  if(cuda_sources)
    if(NOT TARGET CUDA::cudart OR NOT TARGET CUDA::cublas)
      find_package(CUDAToolkit QUIET)
    endif()
    if(NOT TARGET CUDA::cudart OR NOT TARGET CUDA::cublas)
      message(WARNING "gpuss_add_executable(${name}): .cu sources but no CUDA toolkit: ${name} is not built")
      return()
    endif()
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST languages)
      # CUDA is not enabled in this project: compile the .cu sources with nvcc here.
      list(REMOVE_ITEM host_sources ${cuda_sources})
      set(inc_genex "$<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>")
      foreach(cu IN LISTS cuda_sources)
        get_filename_component(base "${cu}" NAME)
        set(obj "${CMAKE_CURRENT_BINARY_DIR}/gpuss-objects/${name}/${base}.o")
        set(src_flags "")
        foreach(dir IN LISTS source_dirs)
          list(APPEND src_flags "-I${dir}")
        endforeach()
        add_custom_command(OUTPUT "${obj}"
          COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/gpuss-objects/${name}"
          COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -ccbin ${CMAKE_CXX_COMPILER} -O2 -Xcompiler=-fPIC
                  ${GPUSS_NVCC_FLAGS} ${flags} ${src_flags} "-I$<JOIN:${inc_genex},;-I>" -c "${cu}" -o "${obj}"
          DEPENDS "${cu}"
          COMMENT "nvcc ${base} (${name})"
          VERBATIM COMMAND_EXPAND_LISTS)
        list(APPEND objects "${obj}")
      endforeach()
    endif()
  endif()

  add_executable(${name} ${host_sources} ${objects})
  if(GPUSS_PRETRANSLATED_DIR)
    # At every build, not only at configure: sources change between builds.
    add_custom_target(gpuss-check-pretranslated-${name}
      COMMAND ${CMAKE_COMMAND} -DMODE=check "-DROOT=${PROJECT_SOURCE_DIR}"
              "-DMANIFEST=${GPUSS_PRETRANSLATED_DIR}/${name}/sources.sha256" "-DPROGRAM=${name}"
              -P "${GPUSS_MANIFEST_SCRIPT}"
      COMMENT "Checking ${GPUSS_PRETRANSLATED_DIR}/${name} against its sources"
      VERBATIM)
    add_dependencies(${name} gpuss-check-pretranslated-${name})
  endif()
  target_include_directories(${name} PRIVATE ${include_dirs} ${source_dirs})
  target_compile_definitions(${name} PRIVATE ${ARG_COMPILE_DEFINITIONS})
  target_link_libraries(${name} PRIVATE ${lib} ${ARG_LINK_LIBRARIES})
  if(cuda_sources)
    target_link_libraries(${name} PRIVATE CUDA::cudart CUDA::cublas)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  endif()

  if(NOT GPUSS_PRETRANSLATED_DIR)
    set(gather_dir "${CMAKE_BINARY_DIR}/pretranslated/${name}")
    # Joined with "|": COMMAND_EXPAND_LISTS would split a ";" list into arguments.
    set(depfiles "")
    foreach(out IN LISTS translated)
      string(APPEND depfiles "${out}.d|")
    endforeach()
    add_custom_target(gpuss-pretranslated-${name}
      COMMAND ${CMAKE_COMMAND} -E make_directory "${gather_dir}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${translated} "${gather_dir}/"
      COMMAND ${CMAKE_COMMAND} -DMODE=write "-DROOT=${PROJECT_SOURCE_DIR}" "-DBINARY_DIR=${CMAKE_BINARY_DIR}"
              "-DMANIFEST=${gather_dir}/sources.sha256" "-DDEPFILES=${depfiles}"
              -P "${GPUSS_MANIFEST_SCRIPT}"
      DEPENDS ${translated}
      COMMENT "Gathering the translated sources of ${name} in ${gather_dir}"
      VERBATIM COMMAND_EXPAND_LISTS)
    add_dependencies(gpuss-pretranslated gpuss-pretranslated-${name})
  endif()
endfunction()
