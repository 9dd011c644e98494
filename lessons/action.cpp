#include "lockstep_lessons/action.h"

#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "core/error.h"
#include "failures/intervention.h"

#include <QUrl>
#include <QUrlQuery>

#include <cmath>
#include <vector>

namespace lockstep::lessons {

namespace {

// What one parameter accepts.
struct Param {
    enum class Type { Integer, Number, Choice, ChoiceList, NumberList, Text };
    const char* name;
    Type type;
    double lo = 0;
    double hi = 0;
    const char* choices = ""; // Choice, ChoiceList: comma-separated
    bool required = false;
};

struct Spec {
    ActionKind kind;
    const char* name;
    std::vector<Param> params;
};

using T = Param::Type;

// A change a click on a worker makes, as a link names it: its kind's id, the worker (a change to
// the whole run takes none) and the amount under the kind's own name; a crash may also name its
// step (then it is written into the scenario, and the run starts again) and phase.
Spec fault_spec(const FaultKind& kind) {
    Spec s{ActionKind::Fault, kind.id.data(), {}};
    if (!kind.whole_run)
        s.params.push_back({"worker", T::Integer, 0, ScenarioLimits::max_workers - 1, "", true});
    if (kind.amount_name)
        s.params.push_back({kind.amount_name, T::Number, kind.amount_min, kind.amount_max});
    if (kind.kind == Intervention::Kind::Crash) {
        s.params.push_back({"step", T::Integer, 0, static_cast<double>(ScenarioLimits::max_steps)});
        s.params.push_back({"phase", T::Choice, 0, 0,
                            "compute,communicate,update,before-fsync,after-fsync,after-rename"});
    }
    return s;
}

const std::vector<Spec>& specs() {
    static const std::vector<Spec> all = [] {
        std::vector<Spec> out = {
            {ActionKind::Play, "play", {}},
            {ActionKind::Pause, "pause", {}},
            {ActionKind::Step, "step", {}},
            {ActionKind::Reset, "reset", {}},
            {ActionKind::Run, "run", {}},
            {ActionKind::Set,
             "set",
             {{"workers", T::Integer, 1, ScenarioLimits::max_workers},
              {"steps", T::Integer, 1, static_cast<double>(ScenarioLimits::max_steps)},
              {"batch", T::Integer, 1, static_cast<double>(ScenarioLimits::max_batch)},
              {"seed", T::Integer, 0, 9007199254740992.0},
              {"rule", T::Choice, 0, 0, "sum,mean,weighted-mean"},
              {"algorithm", T::Choice, 0, 0, "parameter-server,ring,tree,hierarchical,none"},
              {"nodes", T::Integer, 1, ScenarioLimits::max_workers},
              {"inter_mbit_s", T::Number, 0.001, 1e7},
              {"inter_latency_us", T::Number, 0, 1e6},
              {"learning_rate", T::Number, 1e-6, 10},
              {"clock", T::Choice, 0, 0, "modelled,measured"},
              {"paced_links", T::Choice, 0, 0, "on,off"},
              {"slowdown", T::NumberList, 1, 100},
              {"shards", T::NumberList, 1, static_cast<double>(ScenarioLimits::max_samples)},
              {"worker_batch", T::NumberList, 1, static_cast<double>(ScenarioLimits::max_batch)},
              {"layers", T::NumberList, 1, ScenarioLimits::max_layer_width},
              {"one_worker_s", T::Number, 0, 1e9},
              {"communication_s", T::Number, 0, 1e9},
              {"jitter", T::Number, 0, 0.9},
              {"straggler_probability", T::Number, 0, 1},
              {"sync", T::Choice, 0, 0, "bsp,ssp,async,local"},
              {"staleness", T::Integer, 0, ScenarioLimits::max_staleness},
              {"local_steps", T::Integer, 1, static_cast<double>(ScenarioLimits::max_steps)},
              {"bucket_kb", T::Integer, 0, static_cast<double>(ScenarioLimits::max_bucket_kb)},
              {"overlap", T::Choice, 0, 0, "on,off"},
              {"accumulate", T::Integer, 1, ScenarioLimits::max_accumulate},
              {"sharding", T::Choice, 0, 0, "none,optimizer,gradients,parameters"},
              {"precision", T::Choice, 0, 0, "float64,float32"},
              {"comm_precision", T::Choice, 0, 0, "float64,float32,float16,bfloat16"},
              {"loss_scale", T::Number, 0, max_loss_scale},
              {"loss_scale_growth", T::Integer, 1,
               static_cast<double>(ScenarioLimits::max_steps)}}},
            {ActionKind::Checkpoint,
             "checkpoint",
             {{"every", T::Integer, 1, static_cast<double>(ScenarioLimits::max_steps), "", true},
              {"restore", T::Choice, 0, 0, "full,weights-only"}}},
            {ActionKind::Restore, "restore", {{"mode", T::Choice, 0, 0, "full,weights-only"}}},
            {ActionKind::Pipeline,
             "pipeline",
             {{"stages", T::Integer, 1, 64, "", true},
              {"microbatches", T::Integer, 1, 1024, "", true},
              {"schedule", T::Choice, 0, 0, "fill-drain,1f1b"}}},
            {ActionKind::View,
             "view",
             {{"name", T::Choice, 0, 0,
               "cluster,timeline,training,speedup,checkpoints,pipeline,memory,comparison", true}}},
            {ActionKind::Scenario, "scenario", {{"file", T::Text, 0, 0, "", true}}},
            {ActionKind::Replay, "replay", {{"file", T::Text, 0, 0, "", true}}},
            {ActionKind::Quiz,
             "quiz",
             {{"bank", T::Text, 0, 0, "", true}, {"question", T::Text, 0, 0, "", false}}},
            {ActionKind::Compare,
             "compare",
             {{"sync", T::ChoiceList, 0, 0, "bsp,ssp,async,local"},
              {"precision", T::ChoiceList, 0, 0, "float64,float32"},
              {"comm_precision", T::ChoiceList, 0, 0, "float64,float32,float16,bfloat16"},
              {"staleness", T::Integer, 0, ScenarioLimits::max_staleness},
              {"local_steps", T::Integer, 1, static_cast<double>(ScenarioLimits::max_steps)}}},
            {ActionKind::Calculator, "calculator", {}},
            {ActionKind::Study, "study", {}},
        };
        // Then every change a click or a link makes, under its kind's id.
        for (const FaultKind* kind : fault_kinds())
            if (kind->menu_text || kind->link_text)
                out.push_back(fault_spec(*kind));
        return out;
    }();
    return all;
}

// The names lessons gave two faults before links took the kinds' own ids.
QString current_name(const QString& name) {
    if (name == QLatin1String("stall"))
        return QStringLiteral("pause");
    if (name == QLatin1String("misorder"))
        return QStringLiteral("bucket-order");
    return name;
}

const Spec& spec_of(ActionKind kind) {
    for (const Spec& s : specs())
        if (s.kind == kind)
            return s;
    return specs().front();
}

QString describe(const Param& p) {
    switch (p.type) {
    case T::Integer:
        return QStringLiteral("a whole number from %1 to %2")
            .arg(p.lo, 0, 'g', 17)
            .arg(p.hi, 0, 'g', 17);
    case T::Number:
        return QStringLiteral("a number from %1 to %2").arg(p.lo).arg(p.hi);
    case T::Choice:
        return QStringLiteral("one of %1").arg(QString::fromLatin1(p.choices).replace(',', ", "));
    case T::ChoiceList:
        return QStringLiteral("two or more of %1, each once, separated by commas")
            .arg(QString::fromLatin1(p.choices).replace(',', ", "));
    case T::NumberList:
        return QStringLiteral("numbers from %1 to %2 separated by commas").arg(p.lo).arg(p.hi);
    case T::Text:
        return QStringLiteral("a name");
    }
    return {};
}

bool parse_double(const QString& text, double& out) {
    bool ok = false;
    out = text.trimmed().toDouble(&ok);
    return ok && std::isfinite(out);
}

void check_value(const QString& url, const Param& p, const QString& value) {
    auto fail = [&] {
        throw Error(url.toStdString() + ": " + p.name + " must be " + describe(p).toStdString() +
                    ", got '" + value.toStdString() + "'");
    };
    double v = 0;
    switch (p.type) {
    case T::Integer:
        if (!parse_double(value, v) || v != std::floor(v) || v < p.lo || v > p.hi)
            fail();
        break;
    case T::Number:
        if (!parse_double(value, v) || v < p.lo || v > p.hi)
            fail();
        break;
    case T::Choice:
        if (!QString::fromLatin1(p.choices).split(',').contains(value))
            fail();
        break;
    case T::ChoiceList: {
        const QStringList known = QString::fromLatin1(p.choices).split(',');
        QStringList parts = value.split(',');
        if (parts.size() < 2 || parts.removeDuplicates() > 0)
            fail();
        for (const QString& part : parts)
            if (!known.contains(part))
                fail();
        break;
    }
    case T::NumberList:
        if (value.trimmed().isEmpty())
            fail();
        for (const QString& part : value.split(',')) {
            if (!parse_double(part, v) || v < p.lo || v > p.hi)
                fail();
        }
        break;
    case T::Text:
        if (value.trimmed().isEmpty())
            fail();
        break;
    }
}

} // namespace

QString Action::text(const QString& key, const QString& fallback) const {
    return params.value(key, fallback);
}

double Action::number(const QString& key, double fallback) const {
    return params.contains(key) ? params.value(key).toDouble() : fallback;
}

int Action::integer(const QString& key, int fallback) const {
    return params.contains(key) ? static_cast<int>(params.value(key).toDouble()) : fallback;
}

QString action_name(const Action& action) {
    return action.kind == ActionKind::Fault ? action.fault
                                            : QString::fromLatin1(spec_of(action.kind).name);
}

QStringList action_vocabulary() {
    QStringList lines;
    for (const Spec& s : specs()) {
        QStringList params;
        for (const Param& p : s.params)
            params << QStringLiteral("%1%2=%3").arg(QString::fromLatin1(p.name),
                                                    p.required ? QString() : QStringLiteral("?"),
                                                    describe(p));
        lines << QStringLiteral("lockstep:%1%2")
                     .arg(QString::fromLatin1(s.name), params.isEmpty()
                                                           ? QString()
                                                           : QStringLiteral(" (") +
                                                                 params.join(QStringLiteral("; ")) +
                                                                 QLatin1Char(')'));
    }
    return lines;
}

bool is_action_link(const QString& url) {
    return url.startsWith(QLatin1String("lockstep:"));
}

Action parse_action(const QString& url) {
    const std::string where = url.toStdString();
    if (!is_action_link(url))
        throw Error(where + ": a lesson action starts with 'lockstep:'");
    const QString rest = url.mid(9);
    const qsizetype q = rest.indexOf(QLatin1Char('?'));
    const QString name = current_name(q < 0 ? rest : rest.left(q));
    // "pause" is the playback's, and with parameters (a worker) the fault's.
    const Spec* spec = nullptr;
    for (const Spec& s : specs())
        if (name == QLatin1String(s.name) && (!spec || (q >= 0 && s.kind == ActionKind::Fault)))
            spec = &s;
    if (!spec) {
        QStringList names;
        for (const Spec& s : specs())
            names << QString::fromLatin1(s.name);
        names.removeDuplicates();
        throw Error(where + ": unknown action '" + name.toStdString() +
                    "' (known: " + names.join(QStringLiteral(", ")).toStdString() + ")");
    }
    Action action;
    action.kind = spec->kind;
    if (spec->kind == ActionKind::Fault)
        action.fault = name;
    action.url = url;
    if (q >= 0) {
        const QString query = rest.mid(q + 1);
        if (query.isEmpty())
            throw Error(where + ": nothing after '?'");
        for (const QString& pair : query.split(QLatin1Char('&'))) {
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            if (eq <= 0)
                throw Error(where + ": '" + pair.toStdString() + "' is not key=value");
            const QString key = pair.left(eq);
            const QString value = QUrl::fromPercentEncoding(pair.mid(eq + 1).toUtf8());
            const Param* param = nullptr;
            for (const Param& p : spec->params)
                if (key == QLatin1String(p.name))
                    param = &p;
            if (!param) {
                QStringList known;
                for (const Param& p : spec->params)
                    known << QString::fromLatin1(p.name);
                throw Error(
                    where + ": '" + name.toStdString() + "' has no parameter '" +
                    key.toStdString() + "'" +
                    (known.isEmpty()
                         ? std::string(" (it takes none)")
                         : " (known: " + known.join(QStringLiteral(", ")).toStdString() + ")"));
            }
            if (action.params.contains(key))
                throw Error(where + ": '" + key.toStdString() + "' given twice");
            check_value(url, *param, value);
            action.params.insert(key, value);
        }
    }
    for (const Param& p : spec->params)
        if (p.required && !action.params.contains(QLatin1String(p.name)))
            throw Error(where + ": '" + name.toStdString() + "' needs " + p.name + " (" +
                        describe(p).toStdString() + ")");
    if (action.kind == ActionKind::Set && action.params.isEmpty())
        throw Error(where + ": 'set' needs at least one setting, e.g. lockstep:set?workers=8");
    if (action.kind == ActionKind::Compare &&
        action.has(QStringLiteral("sync")) + action.has(QStringLiteral("precision")) +
                action.has(QStringLiteral("comm_precision")) !=
            1)
        throw Error(where + ": 'compare' needs one of sync, precision or comm_precision (what "
                            "to compare), e.g. lockstep:compare?sync=bsp,async");
    return action;
}

std::optional<int> action_worker(const Action& action) {
    if (action.has(QStringLiteral("worker")))
        return action.integer(QStringLiteral("worker"));
    return std::nullopt;
}

} // namespace lockstep::lessons
