#include "trace/recording.h"

#include "core/error.h"
#include "core/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace lockstep {

using nlohmann::json;

namespace {

constexpr int kVersion = 1;
constexpr int kLastKind = static_cast<int>(EventKind::Mismatch);
constexpr int kLastStage = static_cast<int>(FileStage::Committed);
constexpr int kLastHalf = static_cast<int>(CollectiveHalf::AllGather);

// One event as a row: worker, kind, step, start, end, bytes, peer, round, value, microbatch,
// ordinal, file stage; and, for a run with gradient buckets, layer, bucket and layer_end.
json event_row(const TraceEvent& e) {
    json row =
        json::array({e.worker, static_cast<int>(e.kind), e.step, e.start, e.end, e.bytes, e.peer,
                     e.round, e.value, e.microbatch, e.ordinal, static_cast<int>(e.file)});
    if (e.layer >= 0 || e.bucket >= 0 || e.half != CollectiveHalf::None) {
        row.push_back(e.layer);
        row.push_back(e.bucket);
        row.push_back(e.layer_end);
    }
    if (e.half != CollectiveHalf::None)
        row.push_back(static_cast<int>(e.half));
    return row;
}

// Reads with the field's path in every message.
struct Reader {
    const std::string& name;

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(name + ": " + where + ": " + what);
    }
    const json& member(const json& object, const char* key, const std::string& where) const {
        if (!object.is_object())
            fail(where, "must be an object");
        const auto it = object.find(key);
        if (it == object.end())
            fail(where.empty() ? key : where + "." + key, "missing");
        return *it;
    }
    std::int64_t integer(const json& v, const std::string& where, std::int64_t lo,
                         std::int64_t hi) const {
        if (!v.is_number_integer())
            fail(where, "must be a whole number");
        const auto x = v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX
                           ? hi + 1
                           : v.get<std::int64_t>();
        if (x < lo || x > hi)
            fail(where, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
        return x;
    }
    double number(const json& v, const std::string& where) const {
        if (v.is_null())
            return std::numeric_limits<double>::quiet_NaN(); // a times-only loss
        if (!v.is_number())
            fail(where, "must be a number");
        return v.get<double>();
    }
};

} // namespace

std::string recording_member(const Recording& r) {
    json events = json::array();
    for (const TraceEvent& e : r.events)
        events.push_back(event_row(e));
    json snapshots = json::array();
    for (const StepSnapshot& s : r.snapshots) {
        json snapshot{{"step", s.step},
                      {"ordinal", s.ordinal},
                      {"time", s.time},
                      {"loss", s.loss},
                      {"accuracy", s.accuracy},
                      {"worker_loss", s.worker_loss},
                      {"parameter_hash", s.parameter_hash},
                      {"replicas_aligned", s.replicas_aligned}};
        if (!s.memory.empty()) { // the ranks' memory ledgers: [worker, at, kinds...]
            json memory = json::array();
            for (const MemorySample& m : s.memory)
                memory.push_back({m.worker, m.at, m.parameters, m.gradients, m.optimizer,
                                  m.activations, m.workspace});
            snapshot["memory"] = std::move(memory);
        }
        snapshots.push_back(std::move(snapshot));
    }
    const json rec{
        {"version", kVersion},       {"scenario", json::parse(scenario_to_json(r.scenario))},
        {"transport", r.transport},  {"ranks", r.ranks},
        {"hosts", r.hosts},          {"clock", "measured"},
        {"events", events},          {"snapshots", snapshots},
        {"parameters", r.parameters}};
    return "\"lockstep_recording\": " + rec.dump();
}

Recording parse_recording(const std::string& text, const std::string& name) {
    const Reader in{name};
    json doc;
    try {
        doc = parse_json_strictly(text);
    } catch (const JsonTextError& e) {
        throw Error(
            name + ": not a JSON document (a trace written by lockstep-cli --trace?): " + e.what());
    }
    if (!doc.is_object() || !doc.contains("lockstep_recording"))
        throw Error(name + ": holds no recording of a run; lockstep-cli writes one into the "
                           "--trace of a run over processes (--transport mpi)");
    const json& rec = doc["lockstep_recording"];
    const std::string at = "lockstep_recording";
    if (in.integer(in.member(rec, "version", at), at + ".version", 1, 1000) != kVersion)
        in.fail(at + ".version", "this Lockstep reads version " + std::to_string(kVersion));
    Recording r;
    try {
        r.scenario = parse_scenario(in.member(rec, "scenario", at).dump(), name);
    } catch (const Error& e) {
        in.fail(at + ".scenario", e.what());
    }
    const json& transport = in.member(rec, "transport", at);
    if (!transport.is_string())
        in.fail(at + ".transport", "must be text");
    r.transport = transport.get<std::string>();
    r.ranks = static_cast<int>(
        in.integer(in.member(rec, "ranks", at), at + ".ranks", 1, ScenarioLimits::max_workers));
    if (r.ranks != r.scenario.workers)
        in.fail(at + ".ranks",
                "must equal the scenario's workers (" + std::to_string(r.scenario.workers) + ")");
    const json& hosts = in.member(rec, "hosts", at);
    if (!hosts.is_array() || hosts.empty() || hosts.size() > static_cast<std::size_t>(r.ranks))
        in.fail(at + ".hosts", "must list between 1 and ranks host names");
    for (const json& h : hosts) {
        if (!h.is_string())
            in.fail(at + ".hosts", "must list host names as text");
        r.hosts.push_back(h.get<std::string>());
    }

    const json& events = in.member(rec, "events", at);
    if (!events.is_array() || events.size() > RecordingLimits::max_events)
        in.fail(at + ".events", "must be a list of at most " +
                                    std::to_string(RecordingLimits::max_events) + " events");
    const std::int64_t steps = r.scenario.steps;
    constexpr std::int64_t kTime = std::int64_t{1} << 62;
    r.events.reserve(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        const std::string where = at + ".events[" + std::to_string(i) + "]";
        const json& row = events[i];
        if (!row.is_array() || (row.size() != 12 && row.size() != 15 && row.size() != 16))
            in.fail(where, "must be a row of 12 values (15 with gradient buckets or a layer, "
                           "16 with the half of a sharded all-reduce)");
        TraceEvent e;
        e.worker = static_cast<int>(in.integer(row[0], where + "[0] (worker)", 0, r.ranks - 1));
        e.kind = static_cast<EventKind>(in.integer(row[1], where + "[1] (kind)", 0, kLastKind));
        e.step = in.integer(row[2], where + "[2] (step)", 0, steps - 1);
        e.start = in.integer(row[3], where + "[3] (start)", -kTime, kTime);
        e.end = in.integer(row[4], where + "[4] (end)", e.start, kTime);
        e.bytes = in.integer(row[5], where + "[5] (bytes)", 0, kTime);
        e.peer = static_cast<int>(in.integer(row[6], where + "[6] (peer)", -1, r.ranks - 1));
        e.round = static_cast<int>(in.integer(row[7], where + "[7] (round)", -1, INT32_MAX));
        e.value = in.number(row[8], where + "[8] (value)");
        e.microbatch =
            static_cast<int>(in.integer(row[9], where + "[9] (microbatch)", -1, INT32_MAX));
        e.ordinal = static_cast<int>(in.integer(row[10], where + "[10] (ordinal)", 0, INT32_MAX));
        e.file = static_cast<FileStage>(in.integer(row[11], where + "[11] (file)", 0, kLastStage));
        if (row.size() >= 15) {
            constexpr std::int64_t kMost = ScenarioLimits::max_layers;
            e.layer = static_cast<int>(in.integer(row[12], where + "[12] (layer)", -1, kMost));
            e.bucket = static_cast<int>(in.integer(row[13], where + "[13] (bucket)", -1, kMost));
            e.layer_end =
                static_cast<int>(in.integer(row[14], where + "[14] (layer_end)", -1, kMost));
        }
        if (row.size() == 16)
            e.half = static_cast<CollectiveHalf>(
                in.integer(row[15], where + "[15] (half)", 1, kLastHalf));
        if (!r.events.empty() && e.step < r.events.back().step)
            in.fail(where, "events must come step by step");
        r.events.push_back(e);
    }

    const json& snapshots = in.member(rec, "snapshots", at);
    if (!snapshots.is_array() || snapshots.empty() ||
        snapshots.size() > static_cast<std::size_t>(steps))
        in.fail(at + ".snapshots", "must hold between 1 and the scenario's steps snapshots");
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        const std::string where = at + ".snapshots[" + std::to_string(i) + "]";
        const json& j = snapshots[i];
        StepSnapshot s;
        s.step = in.integer(in.member(j, "step", where), where + ".step", 0, steps - 1);
        s.ordinal = in.integer(in.member(j, "ordinal", where), where + ".ordinal", 0, INT32_MAX);
        s.time = in.integer(in.member(j, "time", where), where + ".time", 0, kTime);
        s.loss = in.number(in.member(j, "loss", where), where + ".loss");
        s.accuracy = in.number(in.member(j, "accuracy", where), where + ".accuracy");
        const json& losses = in.member(j, "worker_loss", where);
        const json& hashes = in.member(j, "parameter_hash", where);
        if (!losses.is_array() || losses.size() != static_cast<std::size_t>(r.ranks))
            in.fail(where + ".worker_loss", "must hold one loss per rank");
        if (!hashes.is_array() || hashes.size() != static_cast<std::size_t>(r.ranks))
            in.fail(where + ".parameter_hash", "must hold one hash per rank");
        for (std::size_t k = 0; k < losses.size(); ++k) {
            s.worker_loss.push_back(in.number(losses[k], where + ".worker_loss"));
            if (!hashes[k].is_number_unsigned() && !hashes[k].is_number_integer())
                in.fail(where + ".parameter_hash", "must hold whole numbers");
            s.parameter_hash.push_back(hashes[k].get<std::uint64_t>());
        }
        const json& aligned = in.member(j, "replicas_aligned", where);
        if (!aligned.is_boolean())
            in.fail(where + ".replicas_aligned", "must be true or false");
        s.replicas_aligned = aligned.get<bool>();
        if (j.contains("memory")) {
            const json& memory = j["memory"];
            const std::string there = where + ".memory";
            if (!memory.is_array() || memory.size() > RecordingLimits::max_events)
                in.fail(there, "must be a list of memory samples");
            for (std::size_t m = 0; m < memory.size(); ++m) {
                const json& row = memory[m];
                const std::string cell = there + "[" + std::to_string(m) + "]";
                if (!row.is_array() || row.size() != 7)
                    in.fail(cell, "must be a row of 7 values (worker, time and five kinds of "
                                  "bytes)");
                MemorySample sample;
                sample.worker =
                    static_cast<int>(in.integer(row[0], cell + "[0] (worker)", 0, r.ranks - 1));
                sample.at = in.integer(row[1], cell + "[1] (time)", -kTime, kTime);
                std::int64_t* kinds[] = {&sample.parameters, &sample.gradients, &sample.optimizer,
                                         &sample.activations, &sample.workspace};
                for (std::size_t k = 0; k < 5; ++k)
                    *kinds[k] = in.integer(
                        row[2 + k], cell + "[" + std::to_string(2 + k) + "] (bytes)", 0, kTime);
                s.memory.push_back(sample);
            }
        }
        if (!r.snapshots.empty() && s.step <= r.snapshots.back().step)
            in.fail(where, "snapshots must come step by step");
        r.snapshots.push_back(std::move(s));
    }
    const json& parameters = in.member(rec, "parameters", at);
    if (!parameters.is_array() || parameters.size() != r.scenario.model.parameter_count())
        in.fail(at + ".parameters", "must hold the model's " +
                                        std::to_string(r.scenario.model.parameter_count()) +
                                        " parameters");
    for (const json& p : parameters) {
        if (!p.is_number())
            in.fail(at + ".parameters", "must hold numbers");
        r.parameters.push_back(p.get<double>());
    }
    return r;
}

Recording read_recording(const std::string& path) {
    return parse_recording(read_text_file(path, RecordingLimits::max_file_bytes), path);
}

} // namespace lockstep
