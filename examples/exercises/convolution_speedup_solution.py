"""Convolution speedup (lesson 004), solved: copy the inputs with cp.asarray, convolve on the GPU, copy the
result back with cp.asnumpy. Run this file to see the speedup at the lesson's size.
"""

import timeit

import cuarray as cp
import numpy as np
from cuarray.scipy.signal import convolve2d as convolve2d_gpu
from scipy.signal import convolve2d as convolve2d_cpu


def make_image(tiles=128):
    """The lesson's image (a one in the middle of each 16 x 16 tile) and its 15 x 15 Gaussian kernel."""
    primary_unit = np.zeros((16, 16))
    primary_unit[8, 8] = 1
    deltas = np.tile(primary_unit, (tiles, tiles))
    x, y = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    gauss = np.exp(-(np.sqrt(x * x + y * y) ** 2 / 2.0))
    return deltas, gauss


def transfer_compute_transferback(deltas, gauss):
    """convolve2d(deltas, gauss) computed on the GPU, returned as a NumPy array."""
    deltas_gpu = cp.asarray(deltas)
    gauss_gpu = cp.asarray(gauss)
    convolved_image_using_GPU = convolve2d_gpu(deltas_gpu, gauss_gpu)
    return cp.asnumpy(convolved_image_using_GPU)


def speedup(deltas, gauss, repeat=3):
    """Best CPU time over best GPU time, the GPU's including the copies both ways."""
    transfer_compute_transferback(deltas, gauss)  # the first call compiles the kernel
    cpu = min(timeit.repeat(lambda: convolve2d_cpu(deltas, gauss), number=1, repeat=repeat))
    gpu = min(timeit.repeat(lambda: transfer_compute_transferback(deltas, gauss), number=1, repeat=repeat))
    return cpu / gpu


if __name__ == "__main__":
    print(f"speedup with transfers: {speedup(*make_image()):.0f}x")
