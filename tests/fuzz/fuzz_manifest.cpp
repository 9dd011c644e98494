// Feeds arbitrary bytes to the MANIFEST reader. It must either reject them with a lockstep::Error
// or return a manifest whose every entry is a plain name inside the checkpoint directory, and
// which encodes back to the very same bytes.

#include "checkpoint/checkpoint.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    try {
        const lockstep::CheckpointManifest manifest = lockstep::decode_manifest(bytes);
        for (const auto& entry : manifest.files)
            if (!lockstep::is_plain_file_name(entry.name))
                std::abort();
        const std::vector<std::byte> again = lockstep::encode_manifest(manifest);
        if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
