#include "cuarray/jit/kernel_args.h"

#include <cstdint>
#include <cstring>

#include "cuarray/error.h"

namespace cuarray::jit {

namespace {

std::string bytes_of(std::size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

// `arg` (an integer of at most 8 bytes) as an integer of `size` bytes, as C converts it; false if narrowing
// would change its value (it fits neither the signed nor the unsigned type of that size).
bool convert_integer(const KernelArg& arg, std::size_t size, std::string& out) {
  const std::size_t n = arg.bytes.size();
  std::uint64_t bits = 0;
  std::memcpy(&bits, arg.bytes.data(), n);  // little-endian hosts only, as the kernels' own argument passing
  bool negative = false;
  if (n < 8) {
    const std::uint64_t sign = std::uint64_t{1} << (8 * n - 1);
    negative = arg.kind == KernelArg::Kind::SignedInt && (bits & sign);
    if (negative) bits |= ~((sign << 1) - 1);  // sign-extended to 64 bits
  } else {
    negative = arg.kind == KernelArg::Kind::SignedInt && static_cast<std::int64_t>(bits) < 0;
  }
  if (size < 8) {
    const std::int64_t value = static_cast<std::int64_t>(bits);
    const std::int64_t lowest = -(std::int64_t{1} << (8 * size - 1));
    const std::uint64_t highest = (std::uint64_t{1} << (8 * size)) - 1;
    if (negative ? value < lowest : bits > highest) return false;
  }
  out.assign(size, negative ? '\xff' : '\0');
  std::memcpy(out.data(), &bits, size < 8 ? size : 8);
  return true;
}

// An integer argument's value in decimal, for messages.
std::string integer_text(const KernelArg& arg) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, arg.bytes.data(), arg.bytes.size());
  const std::size_t n = arg.bytes.size();
  if (arg.kind == KernelArg::Kind::SignedInt && n < 8 && (bits >> (8 * n - 1)) & 1)
    bits |= ~std::uint64_t{0} << (8 * n);
  return arg.kind == KernelArg::Kind::SignedInt ? std::to_string(static_cast<std::int64_t>(bits))
                                                : std::to_string(bits);
}

}  // namespace

std::vector<std::string> pack_kernel_args(const std::string& kernel, const std::vector<std::size_t>& sizes,
                                          const std::vector<KernelArg>& args) {
  if (args.size() != sizes.size())
    throw TypeError("RawKernel '" + kernel + "' takes " + std::to_string(sizes.size()) +
                    (sizes.size() == 1 ? " argument (" : " arguments (") + std::to_string(args.size()) + " given)");
  std::vector<std::string> packed(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    const std::size_t size = sizes[i];
    const bool integer = a.kind == KernelArg::Kind::SignedInt || a.kind == KernelArg::Kind::UnsignedInt;
    if (integer ? convert_integer(a, size, packed[i]) : a.bytes.size() == size) {
      if (!integer) packed[i] = a.bytes;
      continue;
    }
    std::string message = "RawKernel '" + kernel + "' argument " + std::to_string(i) + ": ";
    if (a.prefix_size != 0 && size == a.prefix_size) {
      if (!a.prefix_refusal.empty()) throw TypeError(message + a.prefix_refusal);
      packed[i] = a.bytes.substr(0, size);
      continue;
    }
    if (integer)
      message += "the value " + integer_text(a) + ", a " + a.what + ", does not fit parameter " + std::to_string(i) +
                 ", which takes " + bytes_of(size);
    else
      message += "a " + a.what + " is " + bytes_of(a.bytes.size()) + ", but parameter " + std::to_string(i) +
                 " takes " + bytes_of(size);
    if (a.kind == KernelArg::Kind::Float)
      message += "; pass a NumPy scalar of the parameter's type, such as numpy.float32(x) for a float";
    throw TypeError(message);
  }
  return packed;
}

}  // namespace cuarray::jit
