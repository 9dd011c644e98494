#pragma once

// Reading a scenario's JSON strictly (engine internal, scenario/*.cpp): every value checked
// against its range, every unknown key refused, each error naming the field's path.

#include "core/error.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep::scenario_reading {

using nlohmann::json;

// Enough digits to show a limit or a typed value as written (0.999999999, not 1).
inline std::string number_text(double v) {
    std::ostringstream s;
    s.precision(15);
    s << v;
    return s.str();
}

// Whole numbers exactly (1000000, not 1e+06).
template <typename T> std::string value_text(T v) {
    if constexpr (std::is_integral_v<T>)
        return std::to_string(v);
    else
        return number_text(static_cast<double>(v));
}

template <typename T> void check_range(const std::string& path, T value, T lo, T hi) {
    if (value < lo || value > hi) {
        throw Error(path + ": must be between " + value_text(lo) + " and " + value_text(hi) +
                    ", got " + value_text(value));
    }
}

inline void check_finite(const std::string& path, double value, double lo, double hi) {
    if (!std::isfinite(value))
        throw Error(path + ": must be a finite number");
    check_range(path, value, lo, hi);
}

// A whole number in [lo, hi]. One written past the int64 range (JSON keeps it unsigned) is shown
// as written, not wrapped to a negative number.
inline std::int64_t whole_number(const json& v, const std::string& path, std::int64_t lo,
                                 std::int64_t hi) {
    if (!v.is_number_integer())
        throw Error(path + ": must be a whole number between " + std::to_string(lo) + " and " +
                    std::to_string(hi));
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
        throw Error(path + ": must be between " + std::to_string(lo) + " and " +
                    std::to_string(hi) + ", got " + std::to_string(v.get<std::uint64_t>()));
    const auto value = v.get<std::int64_t>();
    check_range(path, value, lo, hi);
    return value;
}

// Walks a JSON object, checking each key's type and rejecting keys nobody asked for.
class ObjectReader {
public:
    ObjectReader(const json& object, std::string path)
        : object_(object)
        , path_(std::move(path)) {
        if (!object_.is_object())
            throw Error(where() + "must be an object");
    }

    ~ObjectReader() = default;
    ObjectReader(const ObjectReader&) = delete;
    ObjectReader& operator=(const ObjectReader&) = delete;

    std::string child(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

    const json* find(const std::string& key) {
        seen_.insert(key);
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }

    void read_int(const std::string& key, std::int64_t& out, std::int64_t lo, std::int64_t hi) {
        if (const json* v = find(key))
            out = whole_number(*v, child(key), lo, hi);
    }

    template <typename T>
    void read_count(const std::string& key, T& out, std::int64_t lo, std::int64_t hi) {
        std::int64_t value = static_cast<std::int64_t>(out);
        read_int(key, value, lo, hi);
        out = static_cast<T>(value);
    }

    void read_number(const std::string& key, double& out, double lo, double hi) {
        if (const json* v = find(key)) {
            if (!v->is_number())
                throw Error(child(key) + ": must be a number between " + number_text(lo) + " and " +
                            number_text(hi));
            const double value = v->get<double>();
            check_finite(child(key), value, lo, hi);
            out = value;
        }
    }

    void read_optional_number(const std::string& key, std::optional<double>& out, double lo,
                              double hi) {
        if (const json* v = find(key)) {
            if (v->is_null()) {
                out.reset();
                return;
            }
            double value = 0;
            read_number(key, value, lo, hi);
            out = value;
        }
    }

    void read_bool(const std::string& key, bool& out) {
        if (const json* v = find(key)) {
            if (!v->is_boolean())
                throw Error(child(key) + ": must be true or false");
            out = v->get<bool>();
        }
    }

    void read_string(const std::string& key, std::string& out, std::size_t max_length = 4096) {
        if (const json* v = find(key)) {
            if (!v->is_string())
                throw Error(child(key) + ": must be a string");
            out = v->get<std::string>();
            if (out.size() > max_length)
                throw Error(child(key) + ": longer than " + std::to_string(max_length) +
                            " characters");
        }
    }

    // A string that must be one of `names`; `parse` maps it to the enum.
    template <typename E>
    void read_choice(const std::string& key, E& out, const std::vector<std::string>& names,
                     const std::function<bool(std::string_view, E&)>& parse) {
        if (const json* v = find(key)) {
            std::string allowed;
            for (const auto& n : names)
                allowed += (allowed.empty() ? "" : ", ") + n;
            if (!v->is_string() || !parse(v->get<std::string>(), out))
                throw Error(child(key) + ": must be one of " + allowed +
                            (v->is_string() ? ", got \"" + v->get<std::string>() + "\"" : ""));
        }
    }

    // Any key present that no read_* call asked for is a typo or a field from elsewhere.
    void reject_unknown() const {
        for (auto it = object_.begin(); it != object_.end(); ++it) {
            if (!seen_.count(it.key()))
                throw Error(child(it.key()) + ": unknown key");
        }
    }

    std::string where() const { return path_.empty() ? "scenario: " : path_ + ": "; }

private:
    const json& object_;
    std::string path_;
    std::set<std::string> seen_;
};

inline const json& expect_array(const json& v, const std::string& path, std::size_t max_size) {
    if (!v.is_array())
        throw Error(path + ": must be a list");
    if (v.size() > max_size)
        throw Error(path + ": at most " + std::to_string(max_size) + " entries, got " +
                    std::to_string(v.size()));
    return v;
}

inline std::vector<std::size_t> read_size_list(const json& v, const std::string& path,
                                               std::size_t max_size, std::int64_t lo,
                                               std::int64_t hi) {
    std::vector<std::size_t> out;
    const json& list = expect_array(v, path, max_size);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = path + "[" + std::to_string(i) + "]";
        out.push_back(static_cast<std::size_t>(whole_number(list[i], item, lo, hi)));
    }
    return out;
}

// The scenario as its canonical JSON object (serialize.cpp): what a run records and hashes.
json scenario_json(const Scenario& s);

// The scenario's machines (topology.cpp): read from "topology", written back, checked.
void parse_topology(ObjectReader& root, Scenario& s);
json topology_json(const Topology& t);
void validate_topology(const Scenario& s);

} // namespace lockstep::scenario_reading
