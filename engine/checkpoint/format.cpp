#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"

#include <bit>
#include <cmath>

namespace lockstep {

using namespace checkpoint_bytes;

namespace {

constexpr std::uint32_t flag_sharded = 1;
constexpr std::uint32_t flag_shared = 2;
constexpr std::uint32_t flag_optimizer = 4;
constexpr std::uint32_t flag_parameters = 8;
constexpr std::uint32_t flag_float32 = 16;
constexpr std::uint32_t flag_loss_scale = 32;

[[noreturn]] void fail(CheckpointFault fault, const std::string& name, const std::string& what) {
    throw CheckpointError(fault, name + ": " + what);
}

// Checks what encoding relies on: a shape the reader will accept back.
void check_state(const TrainingState& s) {
    const auto n = s.parameters.size();
    if (s.workers() < 1 || s.workers() > CheckpointLimits::max_workers)
        throw Error("checkpoint: " + std::to_string(s.workers()) +
                    " workers, must be between 1 and 256");
    if (s.step < 0)
        throw Error("checkpoint: step " + std::to_string(s.step) + " is negative");
    if (n > CheckpointLimits::max_parameters)
        throw Error("checkpoint: " + std::to_string(n) + " parameters, over the limit of " +
                    std::to_string(CheckpointLimits::max_parameters));
    const std::pair<const char*, const AlignedBuffer*> vectors[] = {
        {"velocity", &s.optimizer.velocity},
        {"first_moment", &s.optimizer.first_moment},
        {"second_moment", &s.optimizer.second_moment}};
    for (const auto& [what, v] : vectors)
        if (!v->empty() && v->size() != n)
            throw Error(std::string("checkpoint: optimizer ") + what + " has " +
                        std::to_string(v->size()) + " entries, the model has " + std::to_string(n) +
                        " parameters");
    for (const auto& c : s.cursors)
        if (c.order.size() > CheckpointLimits::max_order_rows)
            throw Error("checkpoint: a data order of " + std::to_string(c.order.size()) +
                        " rows is over the limit of " +
                        std::to_string(CheckpointLimits::max_order_rows));
}

void write_slice(ByteWriter& out, std::span<const double> v, SliceRange range) {
    out.u64(v.size());
    out.u64(range.begin);
    out.u64(range.end - range.begin);
    out.doubles(v.subspan(range.begin, range.end - range.begin));
}

OptimizerSlice read_slice(ByteReader& in, const char* what) {
    OptimizerSlice slice;
    slice.total = in.u64(what);
    if (slice.total > CheckpointLimits::max_parameters)
        in.fail(std::string(what) + " length " + std::to_string(slice.total) +
                " is over the limit of " + std::to_string(CheckpointLimits::max_parameters));
    slice.begin = in.u64(what);
    const std::uint64_t count = in.length(what, CheckpointLimits::max_parameters, sizeof(double));
    if (slice.begin > slice.total || count > slice.total - slice.begin)
        in.fail(std::string(what) + " slice [" + std::to_string(slice.begin) + ", +" +
                std::to_string(count) + ") lies outside its " + std::to_string(slice.total) +
                " entries");
    in.doubles(count, slice.values, what);
    return slice;
}

} // namespace

SliceRange optimizer_slice(std::uint64_t n, int worker, int workers) {
    const auto k = static_cast<std::uint64_t>(worker);
    const auto w = static_cast<std::uint64_t>(workers);
    return {k * n / w, (k + 1) * n / w};
}

namespace checkpoint_bytes {

void write_header(ByteWriter& out, std::string_view magic, const FileHeader& header) {
    out.raw(magic.data(), magic.size());
    out.u32(CheckpointLimits::format_version);
    out.u32(header.flags);
    out.u64(0); // the file size, filled in by finish()
    out.u32(header.a);
    out.u32(header.b);
    out.u64(static_cast<std::uint64_t>(header.step));
    out.u64(header.scenario_hash);
}

FileHeader check_header(std::span<const std::byte> start, std::uint64_t size,
                        const std::string& name, std::string_view magic, std::uint64_t max_bytes) {
    if (size < magic.size() || std::memcmp(start.data(), magic.data(), magic.size()) != 0) {
        if (size < magic.size())
            fail(CheckpointFault::SizeMismatch, name,
                 "truncated: " + std::to_string(size) + " bytes, too short for a header");
        fail(CheckpointFault::Unreadable, name,
             "bad magic: not a Lockstep " +
                 std::string(magic == worker_magic ? "checkpoint" : "manifest") + " file");
    }
    if (size >= 12) {
        const std::uint32_t version = load_u32(start.data() + 8);
        if (version != CheckpointLimits::format_version)
            fail(CheckpointFault::BadVersion, name,
                 "version " + std::to_string(version) + " is not supported (this build reads " +
                     std::to_string(CheckpointLimits::format_version) + ")");
    }
    if (size < header_size + trailer_size)
        fail(CheckpointFault::SizeMismatch, name,
             "truncated: " + std::to_string(size) + " bytes, too short for a header");
    const std::uint64_t declared = load_u64(start.data() + size_offset);
    if (declared > max_bytes)
        fail(CheckpointFault::Unreadable, name,
             "declares " + std::to_string(declared) + " bytes, over the limit of " +
                 std::to_string(max_bytes));
    if (size < declared)
        fail(CheckpointFault::SizeMismatch, name,
             "truncated: " + std::to_string(size) + " bytes, expected " + std::to_string(declared));
    if (size > declared)
        fail(CheckpointFault::SizeMismatch, name,
             "size mismatch: " + std::to_string(size) + " bytes, the header says " +
                 std::to_string(declared));
    FileHeader header;
    header.flags = load_u32(start.data() + 12);
    header.a = load_u32(start.data() + 24);
    header.b = load_u32(start.data() + 28);
    header.step = static_cast<std::int64_t>(load_u64(start.data() + 32));
    header.scenario_hash = load_u64(start.data() + 40);
    return header;
}

void check_checksum(std::uint64_t computed, std::uint64_t stored, const std::string& name) {
    if (computed != stored)
        fail(CheckpointFault::ChecksumMismatch, name, "checksum mismatch");
}

FileHeader read_header(std::span<const std::byte> bytes, const std::string& name,
                       std::string_view magic, std::uint64_t max_bytes) {
    const std::size_t size = bytes.size();
    const FileHeader header =
        check_header(bytes.first(std::min(size, header_size)), size, name, magic, max_bytes);
    check_checksum(checkpoint_checksum(bytes.first(size - trailer_size)),
                   load_u64(bytes.data() + size - trailer_size), name);
    return header;
}

FileImage encode_worker_image(const TrainingState& state, int worker, bool sharded_optimizer,
                              bool sharded_parameters) {
    check_state(state);
    const int workers = state.workers();
    if (worker < 0 || worker >= workers)
        throw Error("checkpoint: no worker " + std::to_string(worker) + " among " +
                    std::to_string(workers));
    const bool shared = worker == 0;
    const bool holds_optimizer = sharded_optimizer || worker == 0;
    const OptimizerState& opt = state.optimizer;
    const AlignedBuffer* vectors[] = {&opt.velocity, &opt.first_moment, &opt.second_moment};
    SliceRange ranges[3];
    for (int i = 0; i < 3; ++i) {
        const auto n = vectors[i]->size();
        ranges[i] = sharded_optimizer ? optimizer_slice(n, worker, workers) : SliceRange{0, n};
    }
    const DataCursor::State& cursor = state.cursors[static_cast<std::size_t>(worker)];

    // The fields; arrays of 4 KiB or more are referred to where they are (see ByteWriter).
    ByteWriter out(header_size + 10 * 8 + 3 * 3 * 8 + 7 * 8 + 4096 + trailer_size);
    FileHeader header;
    header.flags = (sharded_optimizer ? flag_sharded : 0) | (shared ? flag_shared : 0) |
                   (holds_optimizer ? flag_optimizer : 0) |
                   (sharded_parameters ? flag_parameters : 0) |
                   (state.precision == Precision::Float32 ? flag_float32 : 0) |
                   (shared && state.loss_scale ? flag_loss_scale : 0);
    header.a = static_cast<std::uint32_t>(worker);
    header.b = static_cast<std::uint32_t>(workers);
    header.step = state.step;
    header.scenario_hash = state.scenario_hash;
    write_header(out, worker_magic, header);
    if (shared) {
        out.rng(state.run_rng);
        out.i64(opt.step);
        const std::span<const double> whole =
            sharded_parameters ? std::span<const double>() : std::span(state.parameters);
        out.u64(whole.size());
        out.doubles(whole);
        if (state.loss_scale) {
            out.u64(std::bit_cast<std::uint64_t>(state.loss_scale->scale));
            out.i64(state.loss_scale->good_steps);
        }
    }
    if (sharded_parameters)
        write_slice(out, state.parameters,
                    optimizer_slice(state.parameters.size(), worker, workers));
    if (holds_optimizer)
        for (int i = 0; i < 3; ++i)
            write_slice(out, *vectors[i], ranges[i]);
    out.u64(cursor.position);
    out.u64(cursor.epoch);
    out.rng(cursor.rng);
    out.u64(cursor.order.size());
    out.u32s(cursor.order);
    return out.finish();
}

WorkerCheckpoint decode_worker_body(const FileHeader& header, ByteReader& in) {
    if (header.flags & ~(flag_sharded | flag_shared | flag_optimizer | flag_parameters |
                         flag_float32 | flag_loss_scale))
        in.fail("unknown flags " + std::to_string(header.flags));
    if (header.b < 1 || header.b > CheckpointLimits::max_workers)
        in.fail("worker count " + std::to_string(header.b) + " is not in 1..256");
    if (header.a >= header.b)
        in.fail("worker " + std::to_string(header.a) + " of " + std::to_string(header.b));
    if (header.step < 0)
        in.fail("negative step " + std::to_string(header.step));

    WorkerCheckpoint file;
    file.worker = static_cast<int>(header.a);
    file.workers = static_cast<int>(header.b);
    file.sharded_optimizer = (header.flags & flag_sharded) != 0;
    file.step = header.step;
    file.scenario_hash = header.scenario_hash;
    file.has_shared = (header.flags & flag_shared) != 0;
    file.has_optimizer = (header.flags & flag_optimizer) != 0;
    file.sharded_parameters = (header.flags & flag_parameters) != 0;
    file.precision = (header.flags & flag_float32) != 0 ? Precision::Float32 : Precision::Float64;
    if (file.has_shared != (file.worker == 0))
        in.fail("only worker 0's file holds the shared part");
    if (file.has_optimizer != (file.sharded_optimizer || file.worker == 0))
        in.fail("the optimizer part is not where the sharding flag puts it");

    if (file.has_shared) {
        file.run_rng = in.rng("run generator");
        file.optimizer_step = in.i64("optimizer step");
        const std::uint64_t n =
            in.length("parameter count", CheckpointLimits::max_parameters, sizeof(double));
        in.doubles(n, file.parameters, "parameters");
        if (file.sharded_parameters && n != 0)
            in.fail("the shared part holds the parameters whole, but they are sharded");
        if (header.flags & flag_loss_scale) {
            LossScaleState scale;
            scale.scale = std::bit_cast<double>(in.u64("loss scale"));
            scale.good_steps = in.i64("loss scale's good steps");
            if (!(scale.scale >= 1.0 && scale.scale <= max_loss_scale) ||
                std::exp2(std::round(std::log2(scale.scale))) != scale.scale)
                in.fail("loss scale " + std::to_string(scale.scale) +
                        " is not a power of two from 1 to 2^24");
            if (scale.good_steps < 0)
                in.fail("negative count of good steps " + std::to_string(scale.good_steps));
            file.loss_scale = scale;
        }
    } else if (header.flags & flag_loss_scale) {
        in.fail("only worker 0's file holds the loss scale");
    }
    if (file.sharded_parameters)
        file.parameter_slice = read_slice(in, "parameters");
    if (file.has_optimizer) {
        file.velocity = read_slice(in, "velocity");
        file.first_moment = read_slice(in, "first moment");
        file.second_moment = read_slice(in, "second moment");
    }
    file.cursor.position = static_cast<std::size_t>(in.u64("cursor position"));
    file.cursor.epoch = in.u64("cursor epoch");
    file.cursor.rng = in.rng("cursor generator");
    const std::uint64_t m =
        in.length("order length", CheckpointLimits::max_order_rows, sizeof(std::uint32_t));
    in.u32s(m, file.cursor.order, "order");
    if (in.remaining() != 0)
        in.fail(std::to_string(in.remaining()) + " unexpected bytes after the contents");
    return file;
}

} // namespace checkpoint_bytes

std::vector<std::byte> encode_worker_file(const TrainingState& state, int worker,
                                          bool sharded_optimizer, bool sharded_parameters) {
    return encode_worker_image(state, worker, sharded_optimizer, sharded_parameters).flatten();
}

WorkerCheckpoint decode_worker_file(std::span<const std::byte> bytes, const std::string& name) {
    const FileHeader header =
        read_header(bytes, name, worker_magic, CheckpointLimits::max_file_bytes);
    SpanSource body(body_of(bytes));
    ByteReader in(body, name);
    return decode_worker_body(header, in);
}

} // namespace lockstep
