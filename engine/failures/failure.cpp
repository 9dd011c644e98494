#include "failures/failure.h"

#include "core/error.h"

#include <array>
#include <charconv>
#include <cmath>
#include <set>
#include <utility>

namespace lockstep {

namespace {

constexpr std::array<std::pair<FailureKind, std::string_view>, 5> kKinds{{
    {FailureKind::Crash, "crash"},
    {FailureKind::Pause, "pause"},
    {FailureKind::SlowLink, "slow-link"},
    {FailureKind::Corrupt, "corrupt"},
    {FailureKind::BucketOrder, "bucket-order"},
}};
constexpr std::array<std::pair<CrashPhase, std::string_view>, 6> kPhases{{
    {CrashPhase::Compute, "compute"},
    {CrashPhase::Communicate, "communicate"},
    {CrashPhase::Update, "update"},
    {CrashPhase::CheckpointBeforeFsync, "before-fsync"},
    {CrashPhase::CheckpointAfterFsync, "after-fsync"},
    {CrashPhase::CheckpointAfterRename, "after-rename"},
}};
constexpr std::array<std::pair<Corruption, std::string_view>, 2> kCorruptions{{
    {Corruption::BitFlip, "bit-flip"},
    {Corruption::Truncate, "truncate"},
}};
constexpr std::array<std::pair<RecoveryPolicy, std::string_view>, 3> kPolicies{{
    {RecoveryPolicy::Restart, "restart"},
    {RecoveryPolicy::Elastic, "elastic"},
    {RecoveryPolicy::Backup, "backup"},
}};

template <typename E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
    for (const auto& [v, name] : table)
        if (v == value)
            return name;
    return "?";
}

template <typename E, std::size_t N>
bool parse_name(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view text,
                E& out) {
    for (const auto& [v, name] : table)
        if (name == text) {
            out = v;
            return true;
        }
    return false;
}

template <typename E, std::size_t N>
std::string names_of(const std::array<std::pair<E, std::string_view>, N>& table) {
    std::string all;
    for (const auto& [v, name] : table)
        all += (all.empty() ? "" : ", ") + std::string(name);
    return all;
}

std::string number_text(double v) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    return ec == std::errc() ? std::string(buffer, end) : "?";
}

std::int64_t read_integer(std::string_view spec, std::string_view key, std::string_view text,
                          std::int64_t lo, std::int64_t hi) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi)
        throw Error("--fail " + std::string(spec) + ": " + std::string(key) +
                    " must be a whole number between " + std::to_string(lo) + " and " +
                    std::to_string(hi) + ", got \"" + std::string(text) + "\"");
    return value;
}

double read_real(std::string_view spec, std::string_view key, std::string_view text, double lo,
                 double hi) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
        value < lo || value > hi)
        throw Error("--fail " + std::string(spec) + ": " + std::string(key) +
                    " must be a number between " + number_text(lo) + " and " + number_text(hi) +
                    ", got \"" + std::string(text) + "\"");
    return value;
}

} // namespace

bool operator==(const FailureSpec& a, const FailureSpec& b) {
    return a.kind == b.kind && a.worker == b.worker && a.step == b.step && a.phase == b.phase &&
           a.seconds == b.seconds && a.factor == b.factor && a.corruption == b.corruption;
}

std::string_view to_string(FailureKind kind) {
    return name_of(kKinds, kind);
}
std::string_view to_string(CrashPhase phase) {
    return name_of(kPhases, phase);
}
std::string_view to_string(Corruption kind) {
    return name_of(kCorruptions, kind);
}
std::string_view to_string(RecoveryPolicy kind) {
    return name_of(kPolicies, kind);
}
bool parse_failure_kind(std::string_view text, FailureKind& out) {
    return parse_name(kKinds, text, out);
}
bool parse_crash_phase(std::string_view text, CrashPhase& out) {
    return parse_name(kPhases, text, out);
}
bool parse_corruption(std::string_view text, Corruption& out) {
    return parse_name(kCorruptions, text, out);
}
bool parse_recovery_policy(std::string_view text, RecoveryPolicy& out) {
    return parse_name(kPolicies, text, out);
}

FailureSpec parse_failure_spec(std::string_view text) {
    const std::string whole(text);
    const auto colon = text.find(':');
    FailureSpec spec;
    if (!parse_failure_kind(text.substr(0, colon), spec.kind))
        throw Error("--fail " + whole + ": the kind must be one of " + names_of(kKinds) +
                    " (as in crash:worker=2,step=30,phase=compute)");
    // Which keys each kind takes, and which it needs.
    std::set<std::string> allowed{"worker", "step"};
    switch (spec.kind) {
    case FailureKind::Crash:
        allowed.insert("phase");
        break;
    case FailureKind::Pause:
        allowed.insert("seconds");
        break;
    case FailureKind::SlowLink:
        allowed.insert("factor");
        break;
    case FailureKind::Corrupt:
        allowed.insert("how");
        break;
    case FailureKind::BucketOrder:
        break;
    }
    std::set<std::string> seen;
    std::string_view rest =
        colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        const auto eq = item.find('=');
        const std::string key(item.substr(0, eq));
        if (eq == std::string_view::npos || key.empty())
            throw Error("--fail " + whole + ": \"" + std::string(item) +
                        "\" is not of the form key=value");
        if (!allowed.count(key)) {
            std::string keys;
            for (const auto& k : allowed)
                keys += (keys.empty() ? "" : ", ") + k;
            throw Error("--fail " + whole + ": a " + std::string(to_string(spec.kind)) + " takes " +
                        keys + ", not \"" + key + "\"");
        }
        if (!seen.insert(key).second)
            throw Error("--fail " + whole + ": " + key + " given twice");
        const std::string_view value = item.substr(eq + 1);
        if (key == "worker")
            spec.worker = static_cast<int>(read_integer(whole, key, value, 0, 255));
        else if (key == "step")
            spec.step = read_integer(whole, key, value, 0, 1'000'000);
        else if (key == "seconds")
            spec.seconds = read_real(whole, key, value, 0.0, 86400.0);
        else if (key == "factor")
            spec.factor = read_real(whole, key, value, 1.0, 1000.0);
        else if (key == "phase" && !parse_crash_phase(value, spec.phase))
            throw Error("--fail " + whole + ": phase must be one of " + names_of(kPhases) +
                        ", got \"" + std::string(value) + "\"");
        else if (key == "how" && !parse_corruption(value, spec.corruption))
            throw Error("--fail " + whole + ": how must be one of " + names_of(kCorruptions) +
                        ", got \"" + std::string(value) + "\"");
    }
    for (const char* needed : {"worker", "step"})
        if (!seen.count(needed))
            throw Error("--fail " + whole + ": needs " + needed + "=...");
    if (spec.kind == FailureKind::Pause && !seen.count("seconds"))
        throw Error("--fail " + whole + ": needs seconds=...");
    if (spec.kind == FailureKind::SlowLink && !seen.count("factor"))
        throw Error("--fail " + whole + ": needs factor=...");
    return spec;
}

std::string to_text(const FailureSpec& spec) {
    std::string text = std::string(to_string(spec.kind)) +
                       ":worker=" + std::to_string(spec.worker) +
                       ",step=" + std::to_string(spec.step);
    switch (spec.kind) {
    case FailureKind::Crash:
        text += ",phase=" + std::string(to_string(spec.phase));
        break;
    case FailureKind::Pause:
        text += ",seconds=" + number_text(spec.seconds);
        break;
    case FailureKind::SlowLink:
        text += ",factor=" + number_text(spec.factor);
        break;
    case FailureKind::Corrupt:
        text += ",how=" + std::string(to_string(spec.corruption));
        break;
    case FailureKind::BucketOrder:
        break;
    }
    return text;
}

bool is_checkpoint_phase(CrashPhase phase) {
    FailureSpec f;
    f.kind = FailureKind::Crash;
    f.phase = phase;
    return f.during_checkpoint();
}

} // namespace lockstep
