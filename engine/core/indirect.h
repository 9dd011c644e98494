#pragma once

#include <memory>
#include <utility>

namespace lockstep {

// An object on the heap that is copied with its owner (C++26's std::indirect, in brief): lets a
// trainer keep parts whose type is complete only in its .cpp, or whose type is one of several
// (copied by its clone()), and still be copied whole.
template <typename T> class Indirect {
public:
    explicit Indirect(std::unique_ptr<T> p)
        : p_(std::move(p)) {}
    Indirect(const Indirect& other)
        : p_(copy_of(*other.p_)) {}
    Indirect(Indirect&&) noexcept = default;
    Indirect& operator=(const Indirect& other) {
        if (this != &other)
            p_ = copy_of(*other.p_);
        return *this;
    }
    Indirect& operator=(Indirect&&) noexcept = default;
    ~Indirect() = default;

    T& operator*() { return *p_; }
    const T& operator*() const { return *p_; }
    T* operator->() { return p_.get(); }
    const T* operator->() const { return p_.get(); }

private:
    static std::unique_ptr<T> copy_of(const T& t) {
        if constexpr (requires(const T& x) { x.clone(); })
            return t.clone();
        else
            return std::make_unique<T>(t);
    }

    std::unique_ptr<T> p_;
};

} // namespace lockstep
