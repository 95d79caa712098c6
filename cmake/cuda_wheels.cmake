# Note [Building without a CUDA toolkit]
# cuarray compiles against CUDA's headers and links its static runtime; nvcc is not used. A CUDA toolkit
# (CUDA_PATH, CUDA_HOME, nvcc on PATH or /usr/local/cuda, as FindCUDAToolkit looks) is used when there is one.
# Otherwise the headers and libcudart_static.a come from NVIDIA's pip wheels, which unpack into
# site-packages/nvidia/cu13/{include,lib} of the Python that builds: pip's isolated build environment, into
# which build_backend.py adds them as build requirements exactly when it sees no toolkit. FindCUDAToolkit cannot
# take that directory (it has no nvcc or version file, only libcudart.so.13, and CCCL under include/cccl), so
# the two targets the core links are declared here instead.

# Sets CUARRAY_CUDA_WHEELS_DIR to the first nvidia/cu13 directory on `python`'s path that has the runtime's
# headers and static library, or to "" when none has.
function(cuarray_find_cuda_wheels python)
  set(CUARRAY_CUDA_WHEELS_DIR "" PARENT_SCOPE)
  if(NOT python)
    return()
  endif()
  execute_process(
    COMMAND "${python}" -c "import sys, os; print(';'.join(os.path.join(p, 'nvidia', 'cu13') for p in sys.path if p))"
    OUTPUT_VARIABLE candidates OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  foreach(dir IN LISTS candidates)
    if(EXISTS "${dir}/include/cuda_runtime_api.h" AND EXISTS "${dir}/lib/libcudart_static.a")
      set(CUARRAY_CUDA_WHEELS_DIR "${dir}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Declares CUDA::toolkit (the headers) and CUDA::cudart_static from the wheels' directory `dir`.
function(cuarray_use_cuda_wheels dir)
  set(includes "${dir}/include")
  if(EXISTS "${dir}/include/cccl")
    list(APPEND includes "${dir}/include/cccl")
  endif()
  find_package(Threads REQUIRED)
  add_library(CUDA::toolkit INTERFACE IMPORTED GLOBAL)
  target_include_directories(CUDA::toolkit SYSTEM INTERFACE ${includes})
  add_library(CUDA::cudart_static STATIC IMPORTED GLOBAL)
  set_target_properties(CUDA::cudart_static PROPERTIES IMPORTED_LOCATION "${dir}/lib/libcudart_static.a")
  target_link_libraries(CUDA::cudart_static INTERFACE CUDA::toolkit Threads::Threads ${CMAKE_DL_LIBS} rt)
  message(STATUS "CUDA headers and static runtime from NVIDIA's pip wheels: ${dir}")
endfunction()
