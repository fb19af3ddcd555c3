# cmake -P GPUSSPretranslatedManifest.cmake: which sources a program's pre-translated folder was made from.
#
# A GPU node builds the examples from translated sources made where Clang is (gpuss-pretranslated, copied to
# the node as .pretranslated/). A folder older than the sources it came from builds without complaint and
# measures the old code; that happened on 2026-11-28 (docs/testing.md). So the gathering step writes, beside
# the translated files, the SHA-256 of every project file the translation read (from the translator's depfiles),
# and a build from that folder checks them against its own tree first.
#
#   -DMODE=write -DROOT=<project source dir> -DBINARY_DIR=<its build dir> -DMANIFEST=<file> -DDEPFILES=<depfile|...>
#   -DMODE=check -DROOT=<project source dir> -DMANIFEST=<file> -DPROGRAM=<name>
#
# Paths in the manifest are relative to ROOT, so the check works in a checkout at any path. Build outputs
# (gpuss_version.h, under BINARY_DIR) are left out: the node makes its own.
cmake_minimum_required(VERSION 3.20)

if(MODE STREQUAL "write")
  set(files "")
  string(REPLACE "|" ";" DEPFILES "${DEPFILES}")
  foreach(depfile IN LISTS DEPFILES)
    if(depfile STREQUAL "")
      continue()
    endif()
    file(READ "${depfile}" text)
    string(REPLACE "\\\n" " " text "${text}")
    string(REGEX REPLACE "[ \t\n]+" ";" words "${text}")
    foreach(word IN LISTS words)
      if(word STREQUAL "" OR word MATCHES ":$")
        continue()
      endif()
      string(FIND "${word}" "${BINARY_DIR}/" in_build)
      if(in_build EQUAL 0)
        continue() # a build output
      endif()
      file(RELATIVE_PATH relative "${ROOT}" "${word}")
      if(relative MATCHES "^\\.\\./" OR NOT EXISTS "${ROOT}/${relative}")
        continue() # outside the project: system and toolkit headers
      endif()
      list(APPEND files "${relative}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES files)
  list(SORT files)
  set(lines "")
  foreach(relative IN LISTS files)
    file(SHA256 "${ROOT}/${relative}" hash)
    string(APPEND lines "${hash}  ${relative}\n")
  endforeach()
  file(WRITE "${MANIFEST}" "${lines}")
elseif(MODE STREQUAL "check")
  if(NOT EXISTS "${MANIFEST}")
    message(WARNING "${PROGRAM}: ${MANIFEST} is missing (a folder gathered before 2026-11-28): "
                    "cannot tell whether it matches these sources")
    return()
  endif()
  file(STRINGS "${MANIFEST}" entries)
  set(changed "")
  foreach(entry IN LISTS entries)
    string(REGEX MATCH "^([0-9a-f]+)  (.+)$" matched "${entry}")
    if(NOT matched)
      continue()
    endif()
    set(expected "${CMAKE_MATCH_1}")
    set(relative "${CMAKE_MATCH_2}")
    if(NOT EXISTS "${ROOT}/${relative}")
      list(APPEND changed "${relative} (gone)")
      continue()
    endif()
    file(SHA256 "${ROOT}/${relative}" hash)
    if(NOT hash STREQUAL expected)
      list(APPEND changed "${relative}")
    endif()
  endforeach()
  if(changed)
    list(JOIN changed ", " listed)
    message(FATAL_ERROR "${PROGRAM}: the pre-translated sources were made from other versions of ${listed}; "
                        "build the gpuss-pretranslated target again where Clang is and copy its folder")
  endif()
else()
  message(FATAL_ERROR "GPUSSPretranslatedManifest.cmake: MODE must be write or check")
endif()
