"""The data-transfer debugging challenge (lesson 000): data_transfer_*.py must print the lesson's results,
with x**2 computed on GPU 1, x**3 on GPU 2 and the sum on the CPU."""

import runpy

import cuarray as cp
import numpy as np
import pytest

EXPECTED_OUTPUT = """\
<CUDA Device 0> done
<CUDA Device 1> done
<CUDA Device 2> done
Finished computing on the CPU

Results:
<CUDA Device 0> : [0 1 2 3 4 5 6 7 8 9]
<CUDA Device 1> : [ 0  1  4  9 16 25 36 49 64 81]
<CUDA Device 2> : [  0   1   8  27  64 125 216 343 512 729]
CPU:  [  0   3  14  39  84 155 258 399 584 819]
"""

HINT = (
    "An array stays on the device where it was made. Inside `with cp.cuda.Device(n):`, cp.asarray(x) copies "
    "x to GPU n; cp.asnumpy(x) copies a device array to the host (CPU)."
)


@pytest.mark.gpu
@pytest.mark.requires_gpus(3)  # skipped with the count found where there are fewer
def test_data_transfer(exercise_path, capsys):
    path = exercise_path("data_transfer")
    with cp.cuda.Device(0):
        try:
            result = runpy.run_path(str(path), run_name="__main__")
        except Exception as error:  # noqa: BLE001 - any failure of the script is the student's to fix
            pytest.fail(f"{path.name} raised {type(error).__name__}: {error}\nHint: {HINT}", pytrace=False)
    for name, device in (("x_gpu_0", 0), ("x_gpu_1", 1), ("x_gpu_2", 2)):
        array = result[name]
        assert isinstance(array, cp.ndarray) and array.device.id == device, (
            f"{name} should be a cuarray array on GPU {device}, got {type(array).__name__} "
            f"on {getattr(array, 'device', 'the host')}. Hint: {HINT}"
        )
    assert isinstance(result["x_cpu"], np.ndarray), (
        f"x_cpu should be a NumPy array (the sum is computed on the CPU), got {type(result['x_cpu']).__name__}. "
        f"Hint: {HINT}"
    )
    x = np.arange(10)
    np.testing.assert_array_equal(result["x_cpu"], x + x**2 + x**3, err_msg="x_cpu should be x + x**2 + x**3")
    assert capsys.readouterr().out == EXPECTED_OUTPUT, "the script should print the lesson's results"
