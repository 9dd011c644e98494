#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace lockstep {

// Memory that starts on a 64-byte boundary: a cache line, and the widest vector the kernels use
// (eight doubles), so a vector loaded at its start, or a multiple of eight doubles past it,
// never straddles two lines.
template <class T> struct CacheLineAllocator {
    using value_type = T;
    static constexpr std::align_val_t alignment{64};
    CacheLineAllocator() = default;
    template <class U> CacheLineAllocator(const CacheLineAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), alignment)); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, alignment); }
    template <class U> bool operator==(const CacheLineAllocator<U>&) const { return true; }
};
// The buffers the vector kernels run over: parameters, gradients, optimizer state, workspaces.
template <class T> using AlignedVector = std::vector<T, CacheLineAllocator<T>>;
using AlignedBuffer = AlignedVector<double>;

// Gives a buffer's memory back (clear() keeps it).
template <class Buffer> void release(Buffer& buffer) {
    Buffer().swap(buffer);
}

} // namespace lockstep
