"""The caller's array framework: results come back as the inputs came in.

A compiled function is called with NumPy arrays, PyTorch tensors (on the CPU
or a GPU), CuPy arrays, or any other array that speaks DLPack. Its results
are arrays of the same framework: NumPy in, NumPy out; PyTorch in, PyTorch
out (allocated by PyTorch's caching allocator, on PyTorch's current stream);
CuPy in, CuPy out. This module knows the frameworks: it recognises their
arrays, reads a GPU array's pointer, dtype and shape without going through
DLPack (a few attribute reads instead of a capsule per call: the call path
must cost microseconds), allocates results, and names the caller's stream.

Frameworks are looked up in `sys.modules` and never imported here: an array
of a framework exists only once its caller has imported it, and irkit has no
dependency on either.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from irkit.dtypes import BFLOAT16

# What a call's results are made of, decided by its inputs.
NUMPY = "numpy"
TORCH = "torch"
CUPY = "cupy"
DLPACK = "dlpack"  # another GPU array: results are cuda.core memory views


def torch_module() -> Any | None:
    """PyTorch, when the process has imported it (else None)."""
    return sys.modules.get("torch")


def cupy_module() -> Any | None:
    return sys.modules.get("cupy")


def is_torch_tensor(value: Any) -> bool:
    torch = torch_module()
    return torch is not None and isinstance(value, torch.Tensor)


def is_cupy_array(value: Any) -> bool:
    cupy = cupy_module()
    return cupy is not None and isinstance(value, cupy.ndarray)


def torch_dtype(dtype: np.dtype[Any]) -> Any:
    """The PyTorch dtype of a NumPy dtype (`float32` -> `torch.float32`)."""
    torch = torch_module()
    assert torch is not None
    return getattr(torch, "bool" if dtype == np.bool_ else dtype.name)


def as_host_array(value: Any) -> Any:
    """A PyTorch CPU tensor as the NumPy array sharing its memory; anything
    else unchanged (NumPy converts lists and numbers later)."""
    if is_torch_tensor(value) and value.device.type == "cpu":
        torch = torch_module()
        assert torch is not None
        if value.dtype == torch.bfloat16:
            # PyTorch's `.numpy()` refuses bfloat16: the same bits, viewed.
            return value.detach().view(torch.int16).numpy().view(BFLOAT16)
        return value.detach().numpy()
    return value


def host_result(array: np.ndarray, inputs: Sequence[Any]) -> Any:
    """A result the runtime allocated on the host, in the framework of the
    inputs: a PyTorch CPU tensor sharing `array`'s memory when any input was
    a PyTorch tensor, else `array`."""
    if any(is_torch_tensor(value) for value in inputs):
        torch = torch_module()
        assert torch is not None
        if array.dtype == BFLOAT16:
            # `torch.from_numpy` knows no ml_dtypes type: the bits, viewed.
            return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(array)
    return array


@dataclass(frozen=True)
class GpuArray:
    """A caller's GPU array: where its data is and what it is.

    `value` is the caller's object (returned as given for `out=`); `keep`
    holds anything that must live while the call runs (a DLPack view).
    """

    value: Any
    pointer: int
    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    device_id: int
    contiguous: bool
    readonly: bool
    framework: str
    keep: Any = None

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    @property
    def extent(self) -> tuple[int, int]:
        return self.pointer, self.nbytes


def gpu_array_of_torch(value: Any) -> GpuArray | None:
    """A CUDA tensor's facts, read directly (None for a CPU tensor)."""
    device = value.device
    if device.type != "cuda":
        return None
    dtype = np.dtype(str(value.dtype).removeprefix("torch."))
    return GpuArray(
        value,
        value.data_ptr(),
        tuple(value.shape),
        dtype,
        device.index if device.index is not None else 0,
        value.is_contiguous(),
        False,
        TORCH,
    )


def gpu_array_of_cupy(value: Any) -> GpuArray:
    return GpuArray(
        value,
        value.data.ptr,
        tuple(value.shape),
        value.dtype,
        value.device.id,
        value.flags.c_contiguous,
        False,
        CUPY,
    )


def torch_stream(device_id: int) -> int:
    """The handle of PyTorch's current stream on the device.

    Read through the raw accessor Triton and Inductor use when PyTorch has
    it (a tenth of a microsecond, where `torch.cuda.current_stream` builds a
    Stream object: three)."""
    torch = torch_module()
    assert torch is not None
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return int(raw(device_id))
    return int(torch.cuda.current_stream(device_id).cuda_stream)


def cupy_stream(device_id: int) -> int:
    cupy = cupy_module()
    assert cupy is not None
    with cupy.cuda.Device(device_id):
        return int(cupy.cuda.get_current_stream().ptr)


def allocate_torch(shape: tuple[int, ...], dtype: Any, device: Any) -> Any:
    """An uninitialised PyTorch CUDA tensor (`dtype` a PyTorch dtype,
    `device` a `torch.device`) from its caching allocator."""
    torch = torch_module()
    assert torch is not None
    return torch.empty(shape, dtype=dtype, device=device)


def allocate_cupy(shape: tuple[int, ...], dtype: np.dtype[Any], device_id: int) -> Any:
    """An uninitialised CuPy array from its memory pool."""
    cupy = cupy_module()
    assert cupy is not None
    with cupy.cuda.Device(device_id):
        return cupy.empty(shape, dtype)
