"""The serial kernels of cuarray.scipy.signal's filters (lfilter and sosfilt, upfirdn, the symmetric IIR filters
and sepfir2d): each module's table of sources, compiled on first use, and the complex arithmetic they share."""

# The complex arithmetic of the signal kernels whose loops are SciPy's: (real, imaginary) pairs with C99's products
# written out, each operation rounded on its own under -fmad=false (no recovery of infinities from NaN products,
# which SciPy's finite values never need).
PAIR_COMPLEX = r"""
template <typename T> struct pair_complex {
  T re, im;
  __device__ __forceinline__ pair_complex(T r = T(0), T i = T(0)) : re(r), im(i) {}
};
template <typename T>
__device__ __forceinline__ pair_complex<T> operator+(pair_complex<T> a, pair_complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T>
__device__ __forceinline__ pair_complex<T> operator-(pair_complex<T> a, pair_complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T>
__device__ __forceinline__ pair_complex<T> operator-(pair_complex<T> a) { return {-a.re, -a.im}; }
template <typename T>
__device__ __forceinline__ pair_complex<T> operator*(pair_complex<T> a, pair_complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// A real coefficient times a complex value.
template <typename T>
__device__ __forceinline__ pair_complex<T> operator*(T s, pair_complex<T> a) { return {s * a.re, s * a.im}; }
"""


class KernelTable:
    """A module's kernels: table(name) is the ElementwiseKernel of sources[name] = (in_params, out_params, body),
    with the module's preamble and NVRTC options, built once."""

    def __init__(self, sources, options, preamble=""):
        self.sources, self.options, self.preamble = sources, options, preamble
        self._kernels = {}

    def __call__(self, name):
        kernel = self._kernels.get(name)
        if kernel is None:
            from cuarray._kernel import ElementwiseKernel  # on first use, as every kernel of the package

            in_params, out_params, body = self.sources[name]
            kernel = ElementwiseKernel(
                in_params, out_params, body, name, preamble=self.preamble, options=self.options
            )
            self._kernels[name] = kernel
        return kernel
