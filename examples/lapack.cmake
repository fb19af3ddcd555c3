# examples/lapack.cmake: the target `examples_lapack`, CBLAS and LAPACKE
# (OpenBLAS carries CBLAS and LAPACK; lapacke is the C interface on top), for
# the host task bodies of examples/gemm and examples/potri.
#
#   include(${PROJECT_SOURCE_DIR}/examples/lapack.cmake)
#   if(NOT TARGET examples_lapack) ... skip ... endif()
include_guard(GLOBAL)

find_path(EXAMPLES_LAPACKE_INCLUDE_DIR lapacke.h)
find_path(EXAMPLES_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas)
find_library(EXAMPLES_LAPACKE_LIBRARY lapacke)
find_library(EXAMPLES_OPENBLAS_LIBRARY openblas)
if(NOT EXAMPLES_OPENBLAS_LIBRARY)
  find_package(BLAS QUIET)
  find_package(LAPACK QUIET)
endif()
if(EXAMPLES_LAPACKE_INCLUDE_DIR AND EXAMPLES_CBLAS_INCLUDE_DIR AND EXAMPLES_LAPACKE_LIBRARY
   AND (EXAMPLES_OPENBLAS_LIBRARY OR BLAS_FOUND))
  add_library(examples_lapack INTERFACE)
  target_include_directories(examples_lapack INTERFACE ${EXAMPLES_LAPACKE_INCLUDE_DIR} ${EXAMPLES_CBLAS_INCLUDE_DIR})
  if(EXAMPLES_OPENBLAS_LIBRARY)
    target_link_libraries(examples_lapack INTERFACE ${EXAMPLES_LAPACKE_LIBRARY} ${EXAMPLES_OPENBLAS_LIBRARY} m)
  else()
    target_link_libraries(examples_lapack INTERFACE ${EXAMPLES_LAPACKE_LIBRARY} ${LAPACK_LIBRARIES} ${BLAS_LIBRARIES} m)
  endif()
endif()
