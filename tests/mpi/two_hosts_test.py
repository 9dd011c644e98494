#!/usr/bin/env python3
"""A run across two real hosts on this computer.

scripts/two-hosts.sh makes two network namespaces, h1 and h2, joined by a veth pair shaped to
100 Mbit/s, and starts Open MPI ranks in both (TCP over the veth, no shared memory between them).
This test trains 4 ranks as 2 machines x 2 with the hierarchical all-reduce and checks:
  - the parameters are the bytes of the same run on threads, and the report names both hosts and
    the same bytes between machines;
  - the bytes between machines really went over the veth (its byte counters, each direction);
  - the recording opens in the lab's replay;
  - a rank killed on h2 ends the job within the heartbeat's bound, with a message naming the rank
    and h2, and the newest checkpoint (in a folder both hosts see) resumes on threads to the bits
    of the run that was never stopped.

Usage:
    two_hosts_test.py --cli lockstep-cli --lab lockstep --script scripts/two-hosts.sh

Exits 0 when it passes, 1 on a failure, and 77 (skipped, for ctest) where the namespaces cannot
be made (not root, no `ip` or `tc`, a container without the right), with the reason.
"""

import argparse
import filecmp
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

RANK_TIMEOUT_S = 5


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def scenario(path, steps, checkpoints=False):
    s = {"name": "two hosts", "seed": 5, "steps": steps, "workers": 4, "batch": 16,
         "algorithm": "hierarchical", "model": {"layers": [2, 32, 32, 3]},
         "topology": {"nodes": 2, "workers_per_node": 2}}
    if checkpoints:
        s["checkpoint"] = {"every": 10, "keep": 2}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(s, f)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def veth_bytes(stderr):
    found = re.findall(r"two-hosts: veth tx h1->h2 (\d+) bytes, h2->h1 (\d+) bytes", stderr)
    if not found:
        fail("the script did not report the veth's byte counters:\n" + stderr)
    return int(found[-1][0]), int(found[-1][1])


def train_across(opts, work, args):
    """scripts/two-hosts.sh -- lockstep-cli ARGS --transport mpi; skips the test with 77."""
    done = run([opts.script, "--per-host", "2", "--", opts.cli] + args +
               ["--transport", "mpi", "--rank-timeout", str(RANK_TIMEOUT_S)], cwd=work)
    if done.returncode == 77:
        print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "skipped")
        sys.exit(77)
    return done


def signal_a_rank_on_h2(opts, work, scen, checkpoints, number):
    """Starts a long run across the hosts, sends signal `number` to rank 2 or 3 (on h2) once
    the run has checkpointed, and returns the job's stderr, the seconds from the signal to the
    end of the job and its exit code."""
    job = subprocess.Popen([opts.script, "--per-host", "2", "--", opts.cli, "run", scen,
                            "--checkpoint-dir", checkpoints, "--transport", "mpi",
                            "--rank-timeout", str(RANK_TIMEOUT_S)],
                           cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    namespace = "lockstep-h2-%d" % job.pid
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and time.monotonic() < deadline:
        time.sleep(0.2)
        if job.poll() is not None:
            fail("the long run ended before a rank could be killed:\n" + job.stderr.read())
        if not any(name.startswith("step-") for name in os.listdir(checkpoints)):
            continue
        pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True,
                              text=True).stdout.split()
        for pid in pids:
            try:
                with open("/proc/%s/comm" % pid, encoding="utf-8") as f:
                    if f.read().strip() == "lockstep-cli":
                        victim = int(pid)
                        break
            except OSError:
                pass
    if victim is None:
        job.kill()
        fail("found no rank of lockstep-cli in " + namespace)
    os.kill(victim, number)
    killed = time.monotonic()
    try:
        _, err = job.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        job.send_signal(signal.SIGTERM)
        job.communicate()
        fail("the job did not end within 120 s of a rank's death")
    return err, time.monotonic() - killed, job.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--lab", required=True)
    parser.add_argument("--script", required=True)
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        scen = os.path.join(work, "two-hosts.json")
        scenario(scen, 40)

        # The same run on threads, then across the two hosts.
        threads = run([opts.cli, "run", scen, "--json", "--params-out",
                       os.path.join(work, "threads.json")])
        if threads.returncode != 0:
            fail("the run on threads failed:\n" + threads.stderr)
        on_threads = json.loads(threads.stdout)
        across = train_across(opts, work, ["run", scen, "--json", "--params-out",
                                           os.path.join(work, "mpi.json"), "--trace",
                                           os.path.join(work, "recording.json")])
        if across.returncode != 0:
            fail("the run across two hosts failed:\n" + across.stderr)
        report = json.loads(across.stdout)
        if not filecmp.cmp(os.path.join(work, "threads.json"), os.path.join(work, "mpi.json"),
                           shallow=False):
            fail("the parameters across two hosts are not the bytes of threads")
        if report.get("hosts") != ["h1", "h2"]:
            fail("expected the hosts h1 and h2, the report says %r" % report.get("hosts"))
        inter = report.get("bytes_inter_node", 0)
        if inter <= 0 or inter != on_threads.get("bytes_inter_node"):
            fail("bytes between machines: %r across, %r on threads"
                 % (inter, on_threads.get("bytes_inter_node")))
        there, back = veth_bytes(across.stderr)
        # Each direction carries half the bytes between machines, plus TCP's and MPI's own.
        if there < inter // 2 or back < inter // 2:
            fail("the veth carried %d and %d bytes, fewer than the %d each way between machines"
                 % (there, back, inter // 2))
        print("across two hosts: %d bytes between machines, veth %d / %d bytes, step %.3f ms"
              % (inter, there, back, 1e3 * report.get("step_time_s", 0.0)))

        # The recording in the lab's replay.
        shot = os.path.join(work, "replay.png")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
                   XDG_CONFIG_HOME=os.path.join(work, "config"),
                   XDG_DATA_HOME=os.path.join(work, "data"))
        replay = run([opts.lab, "--replay", os.path.join(work, "recording.json"), "--size",
                      "1280x720", "--screenshot", shot], env=env)
        if replay.returncode != 0 or not os.path.getsize(shot):
            fail("the lab did not open the recording:\n" + replay.stderr)

        # A rank that dies on h2: the job ends, naming it, within the heartbeat's bound (or at
        # once, when Open MPI sees its process end), and the newest checkpoint resumes.
        long_scen = os.path.join(work, "long.json")
        scenario(long_scen, 200000, checkpoints=True)
        checkpoints = os.path.join(work, "checkpoints")
        os.mkdir(checkpoints)
        err, took, code = signal_a_rank_on_h2(opts, work, long_scen, checkpoints, signal.SIGKILL)
        bound = RANK_TIMEOUT_S + 10 + 15  # the timeout, the grace period, mpirun's teardown
        if code == 0:
            fail("the job ended with 0 after a rank was killed")
        if took > bound:
            fail("the job took %.1f s to end after a rank was killed (bound %d s)" % (took, bound))
        if not re.search(r"rank [23]\b.*h2|h2.*rank [23]\b", err, re.S):
            fail("the message names neither the killed rank nor h2:\n" + err)
        print("a rank killed on h2: the job ended after %.1f s" % took)

        # A rank on h2 that stops answering (SIGSTOP: hung, or its host cut off): nothing tells
        # Open MPI, so the heartbeat ends the job, naming the rank and its host.
        frozen = os.path.join(work, "frozen")
        os.mkdir(frozen)
        err, took, code = signal_a_rank_on_h2(opts, work, long_scen, frozen, signal.SIGSTOP)
        if code == 0 or took > bound:
            fail("a frozen rank: exit %d after %.1f s (bound %d s)\n%s" % (code, took, bound, err))
        if not re.search(r"rank [23] \(on h2\) did not answer the heartbeat", err):
            fail("the heartbeat's message does not name the frozen rank on h2:\n" + err)
        print("a rank frozen on h2: the heartbeat ended the job after %.1f s" % took)

        # Resume on threads to ten steps past the newest complete checkpoint (the directory's
        # scenario with that many steps: the steps are not part of what a checkpoint must match),
        # and compare with a run on threads that never stopped.
        listed = run([opts.cli, "checkpoints", checkpoints, "--json"])
        complete = [c["step"] for c in json.loads(listed.stdout)["checkpoints"]
                    if c["status"] == "complete"]
        if not complete:
            fail("no complete checkpoint survived the killed rank:\n" + listed.stdout)
        end_step = max(complete) + 10
        kept = os.path.join(checkpoints, "scenario.json")
        with open(kept, encoding="utf-8") as f:
            saved = json.load(f)
        saved["steps"] = end_step
        with open(kept, "w", encoding="utf-8") as f:
            json.dump(saved, f)
        resumed = run([opts.cli, "resume", checkpoints, "--json", "--params-out",
                       os.path.join(work, "resumed.json")])
        if resumed.returncode != 0:
            fail("resume on threads failed:\n" + resumed.stderr)
        scenario(long_scen, end_step, checkpoints=True)
        whole = run([opts.cli, "run", long_scen, "--params-out", os.path.join(work, "whole.json")])
        if whole.returncode != 0:
            fail("the uninterrupted run failed:\n" + whole.stderr)
        if not filecmp.cmp(os.path.join(work, "resumed.json"), os.path.join(work, "whole.json"),
                           shallow=False):
            fail("resumed from step %d on threads, the parameters differ from a run that never "
                 "stopped" % max(complete))
        print("resumed on threads from step %d to %d: the bits of the run that never stopped"
              % (max(complete), end_step))
    return 0


if __name__ == "__main__":
    sys.exit(main())
