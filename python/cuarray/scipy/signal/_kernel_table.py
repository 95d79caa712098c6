"""The serial kernels of cuarray.scipy.signal's filters (lfilter and sosfilt, upfirdn, the symmetric IIR filters
and sepfir2d): each module's table of sources, compiled on first use."""


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
