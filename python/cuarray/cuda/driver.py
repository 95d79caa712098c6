"""The CUDA driver's errors as CuPy names them (cupy.cuda.driver): ``CUDADriverError``, which RawModule raises
where a module does not load or holds no kernel or global of the name asked for."""

from cuarray._errors import CUDADriverError

__all__ = ["CUDADriverError"]

# The driver's names of the errors that loading a module and looking names up in it give; the codes are the
# runtime's too (cudaErrorSymbolNotFound is CUDA_ERROR_NOT_FOUND, 500).
_NAMES = {
    1: "CUDA_ERROR_INVALID_VALUE",
    200: "CUDA_ERROR_INVALID_IMAGE",
    209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
    218: "CUDA_ERROR_INVALID_PTX",
    222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
    301: "CUDA_ERROR_FILE_NOT_FOUND",
    400: "CUDA_ERROR_INVALID_HANDLE",
    500: "CUDA_ERROR_NOT_FOUND",
}


def _as_driver_error(error):
    """`error` (a CUDARuntimeError of a module's load or of a look-up in it) as CuPy's CUDADriverError, whose
    message starts with the driver's name of the error where it is one of _NAMES."""
    if isinstance(error, CUDADriverError):
        return error
    return CUDADriverError(error.status, f"{_NAMES.get(error.status, 'CUDA driver error')}: {error}")
