#include "data/data.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <system_error>
#include <utility>

// The built-in datasets: points drawn from the run's seed (spiral, circles, xor, blobs).

namespace lockstep {

namespace {

constexpr std::size_t max_synthetic_samples = 1'000'000;
constexpr double max_synthetic_noise = 10.0;
constexpr int min_classes = 2;
constexpr int max_classes = 8;

const std::vector<std::string>& known_synthetic_names() {
    static const std::vector<std::string> names{"spiral", "circles", "xor", "clusters",
                                                "regression"};
    return names;
}

std::string joined_names() {
    std::string out;
    for (const auto& name : known_synthetic_names()) {
        if (!out.empty())
            out += ", ";
        out += name;
    }
    return out;
}

// Checks a synthetic spec and returns how many classes the set will have.
int checked_classes(const SyntheticSpec& spec) {
    if (!is_synthetic_dataset(spec.name))
        throw Error("unknown synthetic dataset '" + spec.name + "' (known: " + joined_names() +
                    ")");
    if (spec.samples < 1 || spec.samples > max_synthetic_samples)
        throw Error("synthetic dataset samples must be in 1..1000000, got " +
                    std::to_string(spec.samples));
    if (!(spec.noise >= 0.0 && spec.noise <= max_synthetic_noise))
        throw Error("synthetic dataset noise must be in 0..10, got " + std::to_string(spec.noise));
    if (spec.name == "regression")
        return 1;
    if (spec.name == "circles" || spec.name == "xor") {
        if (spec.classes != 2)
            throw Error("synthetic dataset '" + spec.name + "' always has 2 classes, got " +
                        std::to_string(spec.classes));
        return 2;
    }
    if (spec.classes < min_classes || spec.classes > max_classes)
        throw Error("synthetic dataset '" + spec.name + "' classes must be in 2..8, got " +
                    std::to_string(spec.classes));
    return spec.classes;
}

// One point of class c; the position along the arm is random so that any subset of rows covers
// the whole arm, not just its inner end.
void spiral_point(Rng& rng, int c, int classes, double noise, double* x) {
    const double t = rng.uniform();
    const double angle = 2.0 * std::numbers::pi * c / classes + 4.0 * t;
    x[0] = t * std::cos(angle) + noise * rng.normal();
    x[1] = t * std::sin(angle) + noise * rng.normal();
}

// Class 0 on a ring of radius 0.5, class 1 on a ring of radius 1.
void circles_point(Rng& rng, int c, double noise, double* x) {
    const double radius = c == 0 ? 0.5 : 1.0;
    const double angle = rng.uniform(0.0, 2.0 * std::numbers::pi);
    x[0] = radius * std::cos(angle) + noise * rng.normal();
    x[1] = radius * std::sin(angle) + noise * rng.normal();
}

// Uniform in [-1,1]^2 restricted to the quadrants of class c: 0 where x0*x1 > 0, 1 where < 0.
void xor_point(Rng& rng, int c, double noise, double* x) {
    const double sign = rng.below(2) == 0 ? 1.0 : -1.0;
    const double a = rng.uniform();
    const double b = rng.uniform();
    x[0] = sign * a + noise * rng.normal();
    x[1] = (c == 0 ? sign : -sign) * b + noise * rng.normal();
}

// A Gaussian blob of width 0.15 around a centre on the unit circle.
void cluster_point(Rng& rng, int c, int classes, double noise, double* x) {
    constexpr double blob_width = 0.15;
    const double angle = 2.0 * std::numbers::pi * c / classes;
    x[0] = std::cos(angle) + blob_width * rng.normal() + noise * rng.normal();
    x[1] = std::sin(angle) + blob_width * rng.normal() + noise * rng.normal();
}

} // namespace

bool is_synthetic_dataset(std::string_view name) {
    const auto& names = known_synthetic_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> synthetic_dataset_names() {
    return known_synthetic_names();
}

Dataset make_synthetic(const SyntheticSpec& spec) {
    const int classes = checked_classes(spec);
    Dataset data;
    data.name = spec.name;
    data.dim = 2;
    data.classes = classes;
    data.task = spec.name == "regression" ? Task::Regression : Task::Classification;
    data.features.resize(spec.samples * data.dim);
    data.targets.resize(spec.samples);

    Rng rng(spec.seed);
    for (std::size_t i = 0; i < spec.samples; ++i) {
        double* x = data.features.data() + i * data.dim;
        // Classes are interleaved so that any run of rows, and so any contiguous shard, holds
        // every class in equal measure.
        const int c = static_cast<int>(i % static_cast<std::size_t>(classes));
        if (spec.name == "spiral") {
            spiral_point(rng, c, classes, spec.noise, x);
        } else if (spec.name == "circles") {
            circles_point(rng, c, spec.noise, x);
        } else if (spec.name == "xor") {
            xor_point(rng, c, spec.noise, x);
        } else if (spec.name == "clusters") {
            cluster_point(rng, c, classes, spec.noise, x);
        } else {
            x[0] = rng.uniform(-3.0, 3.0);
            x[1] = rng.uniform(-3.0, 3.0);
            data.targets[i] = std::sin(x[0]) + x[1] / 2.0 + spec.noise * rng.normal();
            continue;
        }
        data.targets[i] = static_cast<double>(c);
    }
    return data;
}

} // namespace lockstep
