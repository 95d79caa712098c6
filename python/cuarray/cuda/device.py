"""cuarray.cuda.Device: a CUDA device, and the calling thread's current device."""

import operator
import threading

from cuarray import _core

_cuda = _core.cuda
_local = threading.local()


def _previous_devices():
    """The calling thread's device before each `with Device` block it is in: one Device object may be entered
    by several threads at once."""
    try:
        return _local.previous
    except AttributeError:
        stack = _local.previous = []
        return stack


class Device:
    """A CUDA device. ``Device()`` is the calling thread's current device. As in CuPy, ``Device(n)`` only names
    device n: using a device that does not exist (``use``, ``with``, its properties) raises CUDARuntimeError."""

    __slots__ = ("id",)

    def __init__(self, device=None):
        if device is None:
            device = _cuda.current_device()
            _cuda.check_device(device)  # as runtime.getDevice: no device is an error
        elif isinstance(device, Device):
            device = device.id
        device = int(device)  # as CuPy's: Device('0') and Device(0.0) are device 0
        if not -0x80000000 <= device <= 0x7FFFFFFF:  # CuPy's id is a C int
            raise OverflowError(f"device id {device} does not fit a C int")
        self.id = device

    def use(self):
        """Makes this device current for the calling thread; returns the device, as CuPy's."""
        _cuda.set_device(self.id)
        return self

    def __enter__(self):
        previous = _cuda.current_device()
        _cuda.set_device(self.id)  # first: a device that does not exist leaves the stack as it was
        _previous_devices().append(previous)
        return self

    def __exit__(self, *exc):
        _cuda.set_device(_previous_devices().pop())

    def synchronize(self):
        """Waits until all work queued on this device has finished."""
        _cuda.synchronize_device(self.id)

    @property
    def compute_capability(self):
        """The compute capability as a string, such as '90'."""
        return str(_cuda.compute_capability(self.id))

    @property
    def mem_info(self):
        """(free, total) bytes of device memory."""
        return tuple(_cuda.mem_info(self.id))

    @property
    def pci_bus_id(self):
        """The device's PCI bus id, such as '0000:3B:00.0'."""
        return _cuda.pci_bus_id(self.id)

    @classmethod
    def from_pci_bus_id(cls, pci_bus_id):
        """The Device at `pci_bus_id` ('[domain]:[bus]:[device].[function]', as pci_bus_id gives it)."""
        if not isinstance(pci_bus_id, str):
            raise TypeError(f"pci_bus_id must be a str, got {type(pci_bus_id).__name__}")
        return cls(_cuda.device_by_pci_bus_id(pci_bus_id))

    @property
    def attributes(self):
        """Every CUDA device attribute the device reports: {name: int}, named as CuPy names them (the
        cudaDevAttr* enumerator without that prefix, such as 'MaxThreadsPerBlock')."""
        return _cuda.device_attributes(self.id)

    @property
    def cublas_handle(self):
        """The calling thread's cuBLAS handle for this device (an int), bound to the current stream."""
        with self:
            return _cuda.cublas_handle()

    @property
    def cusolver_handle(self):
        """The calling thread's cuSOLVER dense handle for this device (an int), bound to the current stream."""
        with self:
            return _cuda.cusolver_handle()

    def __repr__(self):
        return f"<CUDA Device {self.id}>"

    __str__ = __repr__

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    # Devices order by number, as CuPy's; against anything else, comparison is a TypeError.
    def __lt__(self, other):
        return self.id < other.id if isinstance(other, Device) else NotImplemented

    def __le__(self, other):
        return self.id <= other.id if isinstance(other, Device) else NotImplemented

    def __gt__(self, other):
        return self.id > other.id if isinstance(other, Device) else NotImplemented

    def __ge__(self, other):
        return self.id >= other.id if isinstance(other, Device) else NotImplemented

    def __hash__(self):
        return hash(("cuarray.Device", self.id))


def from_pointer(ptr):
    """The Device whose memory the address `ptr` is (cudaPointerGetAttributes)."""
    return Device(_cuda.raw_pointer_device(operator.index(ptr)))


def get_device_id():
    """The calling thread's current device."""
    return Device().id


def get_cublas_handle():
    """The calling thread's cuBLAS handle (an int) for the current device, bound to the current stream."""
    return _cuda.cublas_handle()


def get_cusolver_handle():
    """The calling thread's cuSOLVER dense handle (an int) for the current device, bound to the current
    stream."""
    return _cuda.cusolver_handle()
