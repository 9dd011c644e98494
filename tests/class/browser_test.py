#!/usr/bin/env python3
"""The class quiz in a real browser.

Starts `lockstep-cli class serve reductions` on a free port of 127.0.0.1, joins it from headless
Chromium as a student with a name that looks like HTML, drives the teacher through the HTTP API
(docs/CLASS.md), answers the first question (first with something unreadable, then with the
right answer from `lockstep-cli quiz ask … --show-answer`), checks the student's page at every
step and the results file at the end.

Usage:
    browser_test.py --cli PATH_TO_lockstep-cli [--screenshots DIR]

Needs python3-selenium, chromium and chromium-driver (Debian 12). Exits 0 when it passes, 1 on a
failure, and 77 (skipped, for ctest) when selenium or the browser is missing.
"""

import argparse
import csv
import io
from http.client import HTTPConnection
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

SKIP = 77
BANK = "reductions"
STUDENT_NAME = "Ana <b>bold</b>"
STARTUP_TIMEOUT_S = 30
WAIT_S = 20

# Debian's selenium is a package of the system's Python. When this script runs under another
# interpreter (a pyenv shim, a venv) without it, try the system's once before skipping.
try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    system_python = "/usr/bin/python3"
    if (os.path.exists(system_python)
            and os.path.realpath(sys.executable) != os.path.realpath(system_python)
            and not os.environ.get("LOCKSTEP_BROWSER_TEST_REEXEC")):
        os.environ["LOCKSTEP_BROWSER_TEST_REEXEC"] = "1"
        os.execv(system_python, [system_python] + sys.argv)
    print("SKIP: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(SKIP)


class Failure(Exception):
    """A check that did not hold; its message says what was expected."""


def find_program(env_name, *candidates):
    if os.environ.get(env_name):
        candidates = (os.environ[env_name],)
    for c in candidates:
        path = shutil.which(c) or (c if os.path.isabs(c) and os.access(c, os.X_OK) else None)
        if path:
            return path
    return None


# ------------------------------------------------------------------------------------------
# The server


class Server:
    """`lockstep-cli class serve`, its stdout read line by line on a thread."""

    def __init__(self, cli, results, log_dir):
        self.stderr_path = os.path.join(log_dir, "server-stderr.txt")
        self.stderr = open(self.stderr_path, "w")
        cmd = [cli, "class", "serve", BANK, "--port", "0", "--bind", "127.0.0.1",
               "--results", results, "--journal", os.path.join(log_dir, "class.journal")]
        print("starting: " + " ".join(cmd), flush=True)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, env=os.environ.copy())
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def read_banner(self):
        """The addresses and code the server prints, by their prefixes."""
        wanted = {"students:": None, "join code:": None, "teacher:": None}
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while any(v is None for v in wanted.values()):
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("the server did not print its addresses within %d s; it printed: %r"
                              % (STARTUP_TIMEOUT_S, self.seen))
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.proc.wait(timeout=5)
                raise Failure("the server exited (code %s) before printing its addresses; it "
                              "printed: %r; stderr: %s"
                              % (self.proc.returncode, self.seen, self.stderr_tail()))
            self.seen.append(line)
            print("server: " + line, flush=True)
            for prefix in wanted:
                if line.startswith(prefix) and wanted[prefix] is None:
                    wanted[prefix] = line[len(prefix):].strip()
        return wanted["students:"], wanted["join code:"], wanted["teacher:"]

    def next_line(self, prefix, timeout=10):
        """The rest of the next line the server prints that starts with `prefix`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                continue
            if line is None:
                break
            self.seen.append(line)
            print("server: " + line, flush=True)
            if line.startswith(prefix):
                return line[len(prefix):].strip()
        raise Failure("the server did not print %r within %d s" % (prefix, timeout))

    def stderr_tail(self, n=2000):
        try:
            self.stderr.flush()
            with open(self.stderr_path) as f:
                text = f.read()
            return text[-n:] if text.strip() else "(empty)"
        except OSError:
            return "(unreadable)"

    def terminate(self, timeout=20):
        """SIGTERM and the exit code."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("the server did not exit within %d s of SIGTERM" % timeout)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.stderr.close()


def http(method, url, token=None, body=None):
    """One request; (status, parsed JSON or text). HTTP errors are returned, not raised."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def spend_link(url):
    """GET the teacher's link without following its redirect: (status, Location, Set-Cookie)."""
    parts = urllib.parse.urlparse(url)
    conn = HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
        r = conn.getresponse()
        r.read()
        return r.status, r.getheader("Location", ""), r.getheader("Set-Cookie", "")
    finally:
        conn.close()


class Teacher:
    def __init__(self, base, token):
        self.base = base
        self.token = token

    def step(self, what, body=None):
        status, data = http("POST", self.base + "api/teacher/" + what, self.token, body or {})
        if status != 200:
            raise Failure("POST /api/teacher/%s answered %s: %r" % (what, status, data))
        print("teacher: " + what, flush=True)

    def state(self):
        status, data = http("GET", self.base + "api/teacher/state", self.token)
        if status != 200 or not isinstance(data, dict):
            raise Failure("GET /api/teacher/state answered %s: %r" % (status, data))
        return data


def right_answer(teacher, question_id, student):
    """The student's right answer, from the teacher's results: the class's numbers come from its
    own secret, so `lockstep-cli quiz ask` cannot give them."""
    status, text = http("GET", teacher.base + "api/teacher/results", teacher.token)
    if status != 200:
        raise Failure("GET /api/teacher/results answered %s: %r" % (status, text))
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("student") == student and row.get("question") == question_id:
            return row["answer"]
    raise Failure("the teacher's results have no row for %r and %r" % (student, question_id))


# ------------------------------------------------------------------------------------------
# The browser


def make_browser(chromium, chromedriver, width, height, mobile):
    """Headless Chromium whose page is exactly width x height CSS pixels: headless windows
    keep a minimum width and count their frame, so the page's size is set through DevTools."""
    options = Options()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=%d,%d" % (width, height), "--lang=en-US",
                "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    except WebDriverException:
        pass  # the window's own size will do
    return driver


def wait_for(driver, what, condition, timeout=WAIT_S):
    """Waits until condition(driver) is truthy and returns it; a Failure naming `what` if not."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(
            lambda d: condition(d))
    except TimeoutException:
        raise Failure("timed out after %d s waiting for %s" % (timeout, what))


def displayed(css):
    """A condition: the first element matching css, when it is displayed."""
    def check(d):
        for e in d.find_elements(By.CSS_SELECTOR, css):
            if e.is_displayed():
                return e
        return None
    return check


def text_of(driver, css):
    els = driver.find_elements(By.CSS_SELECTOR, css)
    return els[0].text if els else ""


def check(condition, message):
    if not condition:
        raise Failure(message)


# ------------------------------------------------------------------------------------------
# The test


def run(args, chromium, chromedriver, tmp):
    results = os.path.join(tmp, "results.csv")
    shots = args.screenshots
    if shots:
        os.makedirs(shots, exist_ok=True)
    server = Server(args.cli, results, tmp)
    student = teacher_page = None
    try:
        students_url, code, teacher_url = server.read_banner()
        if not students_url.endswith("/"):
            students_url += "/"
        base = students_url
        check(re.fullmatch(r"\d+", code or ""), "the join code %r is not digits" % code)
        # The teacher's link works once: spent here for the session this script drives the quiz
        # with; the server prints the next link, which the teacher's browser opens below.
        status, location, cookie = spend_link(teacher_url)
        check(status == 303 and location == "/teacher",
              "the teacher's link answered %s to %r, not 303 to /teacher" % (status, location))
        check("HttpOnly" in cookie and "SameSite=Strict" in cookie,
              "the teacher's cookie is not HttpOnly and SameSite=Strict: %r" % cookie)
        session = cookie.split(";")[0].split("=", 1)[1]
        check(spend_link(teacher_url)[0] == 403, "the teacher's link opened the page twice")
        teacher_url = server.next_line("teacher's link used; the next one:")
        teacher = Teacher(base, session)
        print("ok: the teacher's link is spent once for an HttpOnly cookie", flush=True)

        # The student joins.
        student = make_browser(chromium, chromedriver, 412, 900, True)
        student.get(students_url)
        wait_for(student, "the join form (#join-form)", displayed("#join-form"))
        student.find_element(By.ID, "code").send_keys(code)
        student.find_element(By.ID, "name").send_keys(STUDENT_NAME)
        student.find_element(By.ID, "join").click()
        wait_for(student, "the lobby (#lobby) after joining", displayed("#lobby"))
        token_kept = student.execute_script(
            "return Object.keys(sessionStorage).some(k => /^[0-9a-f]{32}$/i.test(sessionStorage.getItem(k)))")
        check(token_kept, "the student's token is not kept in sessionStorage")
        print("ok: the student joined and waits in the lobby", flush=True)

        # The teacher's page, on a projector-sized window.
        teacher_page = make_browser(chromium, chromedriver, 1280, 800, False)
        teacher_page.get(teacher_url)
        wait_for(teacher_page, "the join code on the teacher's page",
                 lambda d: code in d.find_element(By.TAG_NAME, "body").text)
        # Anonymous by default: the student is a number until the teacher ticks Names.
        students_text = lambda d: d.execute_script(
            "return document.getElementById('students').textContent") or ""
        body_text = lambda d: d.execute_script("return document.body.textContent") or ""
        wait_for(teacher_page, "'Student 1' in the teacher's list of students",
                 lambda d: "Student 1" in students_text(d))
        check(STUDENT_NAME not in body_text(teacher_page),
              "the teacher's page shows the student's name before names are shown")
        teacher_page.find_element(By.ID, "view-names").click()
        wait_for(teacher_page, "the student's name in the teacher's list once Names is ticked",
                 lambda d: STUDENT_NAME in students_text(d))
        check(not teacher_page.find_elements(By.CSS_SELECTOR, "#students b"),
              "the teacher's page made a <b> element of the student's name")
        teacher_page.find_element(By.ID, "view-names").click()
        wait_for(teacher_page, "the name gone again once Names is unticked",
                 lambda d: STUDENT_NAME not in body_text(d))
        print("ok: the teacher's page shows no name until Names is ticked", flush=True)
        href = teacher_page.execute_script("return location.href")
        check("token" not in href, "the teacher's address still holds the token: %r" % href)
        check("lockstep_teacher" not in teacher_page.execute_script("return document.cookie"),
              "the teacher's page script can read its cookie")
        for who, page in (("student", student), ("teacher", teacher_page)):
            wait_for(page, "the %s's page live (its socket open with its token)" % who,
                     lambda d: d.find_element(By.ID, "live").get_attribute("data-state") == "live")
        print("ok: the teacher's page has no token in its address; both pages are live",
              flush=True)
        print("ok: the teacher's page shows the code and the name as typed", flush=True)

        # The first question.
        teacher.step("open")
        wait_for(student, "the question (#question-text) after the teacher opened it",
                 displayed("#question-text"))
        check(text_of(student, "#question-text").strip(), "#question-text is empty")
        check(text_of(student, "#question-title").strip(), "#question-title is empty")
        first_index = text_of(student, "#question-index")
        state = teacher.state()
        question = state.get("question") or {}
        check(question.get("id"), "the teacher's state names no open question: %r" % state)
        answer = right_answer(teacher, question["id"], STUDENT_NAME)
        print("ok: question %s is shown; its answer for %r is %s"
              % (question["id"], STUDENT_NAME, answer), flush=True)

        # An answer that cannot be read is refused with a message, not marked.
        box = wait_for(student, "the answer box (#answer)", displayed("#answer"))
        box.clear()
        box.send_keys("five")
        student.find_element(By.ID, "send").click()
        message = wait_for(student, "a message (#message) refusing the answer 'five'",
                           lambda d: displayed("#message")(d) if text_of(d, "#message").strip() else None)
        check(not displayed("#received")(student),
              "the unreadable answer 'five' was shown as received")
        print("ok: 'five' was refused: %s" % message.text, flush=True)

        # The right answer.
        box = student.find_element(By.ID, "answer")
        box.clear()
        box.send_keys(answer)
        student.find_element(By.ID, "send").click()
        received = wait_for(student, "the answer to be received (#received)", displayed("#received"))
        check(answer in received.text, "#received says %r, not the answer %r" % (received.text, answer))
        check(not displayed("#message")(student), "#message still shows after a received answer")
        print("ok: %s" % received.text.replace("\n", " / "), flush=True)

        # The name is shown as typed: text, not markup.
        page_text = student.execute_script("return document.body.textContent") or ""
        check(STUDENT_NAME in page_text,
              "the student's page does not show the name %r as text" % STUDENT_NAME)
        check(not student.find_elements(By.TAG_NAME, "b"),
              "the student's page made a <b> element of the name")
        print("ok: the name shows literally, with no <b> element", flush=True)

        # Close and reveal.
        teacher.step("close")
        wait_for(student, "'answers are closed' (#closed)", displayed("#closed"))
        teacher.step("reveal")
        verdict = wait_for(student, "the verdict (#verdict) after the reveal", displayed("#verdict"))
        wait_for(student, "a verdict in words", lambda d: d.find_element(By.ID, "verdict").text.strip())
        words = student.find_element(By.ID, "verdict").text.lower()
        check("correct" in words and "wrong" not in words,
              "the verdict says %r, not correct" % verdict.text)
        check(displayed("#result")(student), "#result is not shown after the reveal")
        print("ok: the verdict says %r" % verdict.text, flush=True)

        wait_for(teacher_page, "the reveal on the teacher's page (#reveal)", displayed("#reveal"))
        check(STUDENT_NAME not in body_text(teacher_page),
              "the teacher's page names the student at the reveal")
        check(text_of(teacher_page, "#reveal-answer").strip(), "the reveal shows no answer")
        print("ok: the reveal on the teacher's page names no student", flush=True)
        if shots:
            # Let the histogram's bars finish their short transition.
            time.sleep(0.6)
            student.save_screenshot(os.path.join(shots, "class-student.png"))
            teacher_page.save_screenshot(os.path.join(shots, "class-teacher.png"))
            print("ok: screenshots in %s" % shots, flush=True)

        # A timer, picked on the teacher's page, reaches the server.
        Select(teacher_page.find_element(By.ID, "timer")).select_by_visible_text("0:20")
        wait_for(teacher_page, "the server's timer at 20 s", lambda d: teacher.state().get("timer") == 20)
        # Three seconds, for the test: the next question closes by itself.
        teacher.step("timer", {"seconds": 3})
        teacher.step("next")
        wait_for(student, "the second question (#question, after %r)" % first_index,
                 lambda d: displayed("#question")(d) and text_of(d, "#question-index") != first_index)
        print("ok: the second question is shown", flush=True)
        for who, page, css in (("student", student, "#countdown"),
                               ("teacher", teacher_page, "#t-countdown")):
            clock = wait_for(page, "the countdown on the %s's page (%s)" % (who, css), displayed(css))
            check(re.search(r"0:0[0-3]", clock.text), "the %s's countdown says %r" % (who, clock.text))
        opened = time.monotonic()
        wait_for(student, "the question closed by its timer (#closed)", displayed("#closed"))
        waited = time.monotonic() - opened
        check(teacher.state().get("phase") == "closed", "the server's question is not closed")
        wait_for(teacher_page, "the teacher's page at 'Answers closed'",
                 lambda d: not displayed("#t-countdown")(d) and
                 d.find_element(By.ID, "phase").text.strip() == "Answers closed")
        print("ok: the timer closed the question by itself (seen %.1f s after it opened)" % waited,
              flush=True)

        # The end: SIGTERM writes the results and exits 0.
        code_at_exit = server.terminate()
        check(code_at_exit == 0, "the server exited %s after SIGTERM, not 0; stderr: %s"
              % (code_at_exit, server.stderr_tail()))
        check(os.path.exists(results), "the results file %s was not written" % results)
        with open(results, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        check(rows and "student" in rows[0] and "verdict" in rows[0],
              "the results file has no student and verdict columns: %r" % (rows[:1],))
        mine = [r for r in rows if r.get("student") == STUDENT_NAME]
        check(mine, "no row of the results is the student %r: students %r"
              % (STUDENT_NAME, sorted({r.get("student") for r in rows})))
        check(any((r.get("verdict") or "").strip().lower() == "correct" for r in mine),
              "no row of %r is marked correct: %r" % (STUDENT_NAME, mine))
        print("ok: the results file holds %r's correct answer" % STUDENT_NAME, flush=True)
    except Failure:
        if shots:
            for name, d in (("student", student), ("teacher", teacher_page)):
                if d is not None:
                    try:
                        d.save_screenshot(os.path.join(shots, "class-failure-%s.png" % name))
                    except WebDriverException:
                        pass
        print("server stderr: " + server.stderr_tail(), file=sys.stderr)
        raise
    finally:
        for d in (student, teacher_page):
            if d is not None:
                try:
                    d.quit()
                except Exception:
                    pass
        server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", required=True, help="the lockstep-cli program to test")
    parser.add_argument("--screenshots", metavar="DIR",
                        help="save class-student.png and class-teacher.png here")
    args = parser.parse_args()

    chromium = find_program("LOCKSTEP_CHROMIUM", "chromium", "/usr/bin/chromium")
    chromedriver = find_program("LOCKSTEP_CHROMEDRIVER", "chromedriver", "/usr/bin/chromedriver")
    if not chromium or not chromedriver:
        print("SKIP: chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
        return SKIP
    if not (os.path.isfile(args.cli) and os.access(args.cli, os.X_OK)):
        print("FAIL: %s is not an executable lockstep-cli" % args.cli)
        return 1
    if args.screenshots:
        args.screenshots = os.path.abspath(args.screenshots)

    with tempfile.TemporaryDirectory(prefix="lockstep-class-") as tmp:
        try:
            run(args, chromium, chromedriver, tmp)
        except Failure as e:
            print("FAIL: %s" % e, flush=True)
            return 1
        except WebDriverException as e:
            print("FAIL: the browser: %s" % (e.msg or e).__str__().strip(), flush=True)
            return 1
    print("PASS: the class quiz works in a real browser", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
