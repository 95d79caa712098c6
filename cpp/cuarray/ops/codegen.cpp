#include "cuarray/ops/codegen.h"

namespace cuarray::ops {

const char* compute_type(DType t) { return t == DType::Float16 || t == DType::BFloat16 ? "float" : cuda_type(t); }

const char* read_type(DType t) { return t == DType::Bool ? "ca::bool_byte" : cuda_type(t); }

std::string load_expr(const std::string& value, DType from, DType loop) {
  std::string c = compute_type(loop);
  if (from == loop || c == cuda_type(loop)) return "ca::cast<" + c + ">(" + value + ")";
  // Round to the 16-bit loop type first, as NumPy casts the input to the loop type before computing.
  return "ca::cast<" + c + ">(ca::cast<" + cuda_type(loop) + ">(" + value + "))";
}

std::string store_expr(const std::string& value, DType loop, DType to) {
  if (loop == to || std::string(compute_type(loop)) == cuda_type(loop))
    return "ca::cast<" + std::string(cuda_type(to)) + ">(" + value + ")";
  return "ca::cast<" + std::string(cuda_type(to)) + ">(ca::cast<" + cuda_type(loop) + ">(" + value + "))";
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? separator : std::string()) + items[i];
  return s;
}

}  // namespace cuarray::ops
