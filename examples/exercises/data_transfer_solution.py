# data_transfer.py (lesson 000), solved: cp.asarray under `with cp.cuda.Device(n)` copies an array to GPU n,
# cp.asnumpy copies it to the host. Needs 3 GPUs.
import cuarray as cp

# Initialize the array x_gpu_0 on GPU 0
x_gpu_0 = cp.arange(10)
cp.cuda.Stream.null.synchronize()  # Waits for GPU 0 to finish
print(x_gpu_0.device, "done")

# Modify a copy of x_gpu_0 on GPU 1 (must send data to GPU 1)
with cp.cuda.Device(1):
    x_gpu_1 = cp.asarray(x_gpu_0)  # copies x_gpu_0 to GPU 1
    x_gpu_1 = x_gpu_1**2
    cp.cuda.Stream.null.synchronize()  # Waits for GPU 1 to finish
    print(x_gpu_1.device, "done")

# Modify a copy of x_gpu_0 on GPU 2 (must send data to GPU 2)
with cp.cuda.Device(2):
    x_gpu_2 = cp.asarray(x_gpu_0)  # copies x_gpu_0 to GPU 2
    x_gpu_2 = x_gpu_2**3
    cp.cuda.Stream.null.synchronize()  # Waits for GPU 2 to finish
    print(x_gpu_2.device, "done")

# Sum all arrays on the CPU (must send arrays to the CPU)
x_cpu = cp.asnumpy(x_gpu_0) + cp.asnumpy(x_gpu_1) + cp.asnumpy(x_gpu_2)  # NumPy adds host arrays
print("Finished computing on the CPU\n")

# Summary of our results
print("Results:")
print(x_gpu_0.device, ":", x_gpu_0)
print(x_gpu_1.device, ":", x_gpu_1)
print(x_gpu_2.device, ":", x_gpu_2)
print("CPU: ", x_cpu)
