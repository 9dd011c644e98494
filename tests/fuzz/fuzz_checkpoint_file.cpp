// Feeds arbitrary bytes to the worker-K.ckpt reader. It must either reject them with a
// lockstep::Error or return a file; a one-worker file it accepts must assemble into a state that
// encodes back to the very same bytes (the format has one spelling for each state).

#include "lockstep/checkpoint.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    try {
        lockstep::WorkerCheckpoint file = lockstep::decode_worker_file(bytes, "worker-0.ckpt");
        const bool sharded = file.sharded_optimizer;
        std::vector<lockstep::WorkerCheckpoint> files;
        files.push_back(std::move(file));
        const lockstep::TrainingState state = lockstep::assemble_state(std::move(files));
        const std::vector<std::byte> again = lockstep::encode_worker_file(state, 0, sharded);
        if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
