// Training throughput of the engine's MLP on one thread: MLP 2,64,64,2 (tanh, softmax
// cross-entropy, SGD lr 0.05 momentum 0.9), batch 32, on a two-arm spiral made here with Rng.
// Prints one JSON line; scripts/torch_train_baseline.py prints the same for PyTorch.
#include "core/rng.h"
#include "model/model.h"
#include "model/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <vector>

namespace {

// A two-arm spiral with Gaussian jitter: rows of (x, y) and a class label 0 or 1.
void make_spiral(std::size_t samples, lockstep::Rng& rng, std::vector<double>& features,
                 std::vector<double>& labels) {
    features.resize(samples * 2);
    labels.resize(samples);
    for (std::size_t k = 0; k < samples; ++k) {
        const std::size_t label = k % 2;
        const double t = rng.uniform();
        const double angle =
            4.0 * std::numbers::pi * t + std::numbers::pi * static_cast<double>(label);
        features[2 * k] = t * std::cos(angle) + 0.05 * rng.normal();
        features[2 * k + 1] = t * std::sin(angle) + 0.05 * rng.normal();
        labels[k] = static_cast<double>(label);
    }
}

} // namespace

int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 3000;
    constexpr std::size_t batch = 32;
    constexpr std::size_t samples = 2048;
    constexpr int repetitions = 5;

    lockstep::Rng data_rng(7);
    std::vector<double> features;
    std::vector<double> labels;
    make_spiral(samples, data_rng, features, labels);

    lockstep::ModelShape shape;
    shape.layers = {2, 64, 64, 2};
    shape.activation = lockstep::Activation::Tanh;
    shape.loss = lockstep::LossKind::SoftmaxCrossEntropy;
    lockstep::OptimizerConfig config;
    config.kind = lockstep::OptimizerKind::Sgd;
    config.learning_rate = 0.05;
    config.momentum = 0.9;

    std::vector<double> rates;
    double last_loss = 0.0;
    std::uint64_t last_hash = 0;
    for (int rep = 0; rep < repetitions; ++rep) {
        lockstep::Rng init_rng(1);
        std::vector<double> parameters = lockstep::init_parameters(shape, init_rng);
        std::vector<double> gradient(parameters.size());
        lockstep::Optimizer optimizer(config, parameters.size());
        lockstep::Workspace work;

        const auto start = std::chrono::steady_clock::now();
        std::size_t offset = 0;
        for (long step = 0; step < steps; ++step) {
            const lockstep::BatchView view{features.data() + offset * 2, labels.data() + offset,
                                           batch};
            last_loss = lockstep::loss_and_gradient(shape, parameters, view, gradient, work).loss;
            optimizer.apply(parameters, gradient);
            offset = (offset + batch) % samples;
        }
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        last_hash = lockstep::hash_parameters(parameters);
        rates.push_back(static_cast<double>(steps) * batch / elapsed.count());
    }
    std::sort(rates.begin(), rates.end());
    std::printf("{\"bench\":\"train\",\"threads\":1,\"samples_per_s\":%.0f,\"batch\":%zu,"
                "\"steps\":%ld,\"final_loss\":%.6f,\"parameter_hash\":\"%016llx\"}\n",
                rates[repetitions / 2], batch, steps, last_loss,
                static_cast<unsigned long long>(last_hash));
    return 0;
}
