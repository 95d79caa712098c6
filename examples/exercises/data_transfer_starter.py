# data_transfer.py (lesson 000): computes x + x**2 + x**3 on the CPU after computing x**2 on GPU 1 and
# x**3 on GPU 2. Three lines (marked TO-DO) do not move the data where it has to go: fix them.
# Needs 3 GPUs. Check your fix with:  EXERCISE=starter pytest examples/exercises/test_data_transfer.py
import cuarray as cp

# Initialize the array x_gpu_0 on GPU 0
x_gpu_0 = cp.arange(10)
cp.cuda.Stream.null.synchronize()  # Waits for GPU 0 to finish
print(x_gpu_0.device, "done")

# Modify a copy of x_gpu_0 on GPU 1 (must send data to GPU 1)
with cp.cuda.Device(1):
    x_gpu_1 = x_gpu_0  # TO-DO
    x_gpu_1 = x_gpu_1**2
    cp.cuda.Stream.null.synchronize()  # Waits for GPU 1 to finish
    print(x_gpu_1.device, "done")

# Modify a copy of x_gpu_0 on GPU 2 (must send data to GPU 2)
with cp.cuda.Device(2):
    x_gpu_2 = x_gpu_0  # TO-DO
    x_gpu_2 = x_gpu_2**3
    cp.cuda.Stream.null.synchronize()  # Waits for GPU 2 to finish
    print(x_gpu_2.device, "done")

# Sum all arrays on the CPU (must send arrays to the CPU)
x_cpu = x_gpu_0 + x_gpu_1 + x_gpu_2  # TO-DO
print("Finished computing on the CPU\n")

# Summary of our results
print("Results:")
print(x_gpu_0.device, ":", x_gpu_0)
print(x_gpu_1.device, ":", x_gpu_1)
print(x_gpu_2.device, ":", x_gpu_2)
print("CPU: ", x_cpu)
