#include "trainers/setup.h"

#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "trainers/data_parallel.h"

#include <algorithm>
#include <numeric>

// How a run starts: its shards, its workers' places in them, its first parameters, its data.

namespace lockstep {

namespace detail {

std::vector<Shard> make_shards(const Scenario& s, std::size_t rows) {
    if (s.shard_sizes.empty())
        return equal_shards(rows, s.workers);
    try {
        return sized_shards(rows, s.shard_sizes);
    } catch (const Error& e) {
        throw Error(std::string("shard_sizes: ") + e.what());
    }
}

// Worker k's place in its shard at the start of a run: its own generator stream of the seed.
DataCursor fresh_cursor(const Scenario& s, int worker, Shard shard) {
    return DataCursor(shard, s.shuffle,
                      Rng::stream(s.seed, 1000 + static_cast<std::uint64_t>(worker)));
}

std::vector<double> initial_parameters(const Scenario& s) {
    if (!s.init_params.empty())
        return parameters_from_json(s.model, read_text_file(s.init_params));
    Rng rng = Rng::stream(s.seed, 0);
    return init_parameters(s.model, rng);
}

void check_model_fits(const Scenario& s, const Dataset& data) {
    if (data.dim != static_cast<std::size_t>(s.model.inputs()))
        throw Error("model.layers[0]: the dataset has " + std::to_string(data.dim) +
                    " features per row, but the model takes " + std::to_string(s.model.inputs()));
    if (data.task == Task::Regression && s.model.loss != LossKind::MeanSquaredError)
        throw Error("model.loss: the dataset's labels are values (regression); use \"mse\"");
    if (data.task == Task::Classification && s.model.loss == LossKind::SoftmaxCrossEntropy &&
        data.classes > s.model.outputs())
        throw Error("model.layers: the dataset has " + std::to_string(data.classes) +
                    " classes, but the model has " + std::to_string(s.model.outputs()) +
                    " outputs");
}

} // namespace detail

std::shared_ptr<const Dataset> load_dataset(const Scenario& s) {
    if (!s.dataset.csv.empty())
        return std::make_shared<const Dataset>(load_csv(s.dataset.csv));
    SyntheticSpec spec;
    spec.name = s.dataset.name;
    spec.samples = s.dataset.samples;
    spec.noise = s.dataset.noise;
    spec.classes =
        (s.dataset.name == "xor" || s.dataset.name == "circles" || s.dataset.name == "regression")
            ? (s.dataset.name == "regression" ? 1 : 2)
            : s.dataset.classes;
    spec.seed = s.seed;
    return std::make_shared<const Dataset>(make_synthetic(spec));
}

} // namespace lockstep
