# spmv's CMake package: find_package(spmv) gives
#   spmv::spmv  INTERFACE target: the include directory (#include <spmv/spmv.h>), libm, and, when
#               found here, OpenMP (C and C++) and zlib (SPMV_HAVE_ZLIB: .mtx.gz input)
#   spmv::compiled  libspmv.a (s and d compiled; libspmv_types.a beside it: the other tags) with the
#               headers in declarations-only mode (SPMV_DECLARATIONS_ONLY): units compile in
#               about a second; a program that instantiates its own tags uses spmv::spmv and one
#               unit of its own with SPMV_IMPLEMENTATION instead
#   spmv::cuda  spmv::spmv plus OpenMP for .cu files (-Xcompiler -fopenmp) and the CUDA runtime:
#               CMake's own (CMAKE_CUDA_RUNTIME_LIBRARY) when the project enables CUDA, else
#               CUDA::cudart (spmv_cuda.cuh's device code compiles in your .cu unit, with the
#               host side from spmv::spmv's headers or, declarations-only, from spmv::compiled)
# spmv_HAVE_OPENMP, spmv_HAVE_ZLIB, spmv_HAVE_COMPILED, spmv_HAVE_CUDA say what was found.
get_filename_component(_spmv_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include(CMakeFindDependencyMacro)
if(NOT TARGET spmv::spmv)
  add_library(spmv::spmv INTERFACE IMPORTED)
  set_target_properties(spmv::spmv PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                        "${_spmv_prefix}/include;${_spmv_prefix}/include/spmv")
  set(_spmv_libs m)
  set(spmv_HAVE_OPENMP FALSE)
  get_property(_spmv_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_spmv_omp_langs)
  foreach(_l C CXX)
    if(_l IN_LIST _spmv_langs)
      list(APPEND _spmv_omp_langs ${_l})
    endif()
  endforeach()
  if(_spmv_omp_langs)
    find_package(OpenMP QUIET COMPONENTS ${_spmv_omp_langs})
    foreach(_l ${_spmv_omp_langs})
      if(OpenMP_${_l}_FOUND)
        list(APPEND _spmv_libs OpenMP::OpenMP_${_l})
        set(spmv_HAVE_OPENMP TRUE)
      endif()
    endforeach()
  endif()
  find_package(ZLIB QUIET)
  set(spmv_HAVE_ZLIB ${ZLIB_FOUND})
  if(ZLIB_FOUND)
    list(APPEND _spmv_libs ZLIB::ZLIB)
    set_property(TARGET spmv::spmv APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS SPMV_HAVE_ZLIB)
  endif()
  set_property(TARGET spmv::spmv APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${_spmv_libs})
  set(spmv_HAVE_COMPILED FALSE)
  if(EXISTS "${_spmv_prefix}/lib/libspmv.a")
    add_library(spmv::compiled STATIC IMPORTED)
    set_target_properties(spmv::compiled PROPERTIES IMPORTED_LOCATION "${_spmv_prefix}/lib/libspmv.a"
                          INTERFACE_INCLUDE_DIRECTORIES "${_spmv_prefix}/include;${_spmv_prefix}/include/spmv"
                          INTERFACE_COMPILE_DEFINITIONS SPMV_DECLARATIONS_ONLY)
    # libspmv.a was compiled with OpenMP: its runtime is needed whatever the caller uses
    set(_spmv_clibs m)
    foreach(_l ${_spmv_omp_langs})
      if(OpenMP_${_l}_FOUND)
        list(APPEND _spmv_clibs OpenMP::OpenMP_${_l})
        break()
      endif()
    endforeach()
    set_property(TARGET spmv::compiled PROPERTY INTERFACE_LINK_LIBRARIES ${_spmv_clibs})
    set(spmv_HAVE_COMPILED TRUE)
  endif()
  set(spmv_HAVE_CUDA FALSE)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    add_library(spmv::cuda INTERFACE IMPORTED)
    set_property(TARGET spmv::cuda PROPERTY INTERFACE_LINK_LIBRARIES spmv::spmv)
    if(spmv_HAVE_OPENMP)
      set_property(TARGET spmv::cuda APPEND PROPERTY INTERFACE_COMPILE_OPTIONS
                   "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>")
    endif()
    # one runtime: a project compiling CUDA links CMake's choice (CMAKE_CUDA_RUNTIME_LIBRARY)
    if(NOT "CUDA" IN_LIST _spmv_langs)
      set_property(TARGET spmv::cuda APPEND PROPERTY INTERFACE_LINK_LIBRARIES CUDA::cudart)
    endif()
    set(spmv_HAVE_CUDA TRUE)
  endif()
endif()
set(spmv_FOUND TRUE)
