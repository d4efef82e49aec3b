// python/src/host_buffer.hpp: a contiguous host buffer borrowed from a Python object.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <span>

namespace gpukit::python {

// The bytes of any object with the buffer protocol (NumPy arrays and scalars, bytes, bytearray,
// memoryview), held for the lifetime of this object. Throws TypeError for a non-contiguous or
// read-only (when writing) buffer.
class HostBuffer {
public:
    HostBuffer(nanobind::handle object, bool writable) {
        const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(object.ptr(), &view_, flags) != 0) nanobind::raise_python_error();
    }
    ~HostBuffer() { PyBuffer_Release(&view_); }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;

    std::span<std::byte> bytes() const {
        return {static_cast<std::byte*>(view_.buf), static_cast<std::size_t>(view_.len)};
    }

private:
    Py_buffer view_{};
};

}  // namespace gpukit::python
