# Writes OUT, a C++ file holding every kernel header in DIR (*.cuh) and a SHA-256 of them all, so that the
# library hands NVRTC its headers from memory and keys its kernel cache without reading a file
# (jit/kernel_headers.h). Run by the build whenever a header changes.
file(GLOB headers "${DIR}/*.cuh")
list(SORT headers)
set(entries "")
set(everything "")
foreach(path IN LISTS headers)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" text)
  string(FIND "${text}" ")cuarray_cuh\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter )cuarray_cuh\"")
  endif()
  string(APPEND everything "${name}\n${text}\n")
  string(APPEND entries "    {\"cuarray/${name}\", R\"cuarray_cuh(${text})cuarray_cuh\"},\n")
endforeach()
list(LENGTH headers count)
string(SHA256 hash "${everything}")
file(WRITE "${OUT}" "// Generated from cpp/cuarray/kernels by cpp/cuarray/jit/embed_headers.cmake; do not edit.
#include \"cuarray/jit/kernel_headers.h\"

namespace cuarray::jit {

const KernelHeader kKernelHeaders[] = {
${entries}};
const int kKernelHeaderCount = ${count};
const char kKernelHeadersHash[] = \"${hash}\";

}  // namespace cuarray::jit
")
