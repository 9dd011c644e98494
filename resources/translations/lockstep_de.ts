<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Accessibility</name>
    <message>
        <source>Worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>waiting for worker %1</source>
        <translation>wartet auf Worker %1</translation>
    </message>
    <message>
        <source>sending to worker %1</source>
        <translation>sendet an Worker %1</translation>
    </message>
    <message>
        <source>receiving from worker %1</source>
        <translation>empfängt von Worker %1</translation>
    </message>
    <message>
        <source>%1; gradient %2</source>
        <translation>%1; Gradient %2</translation>
    </message>
    <message>
        <source>Lane of worker %1</source>
        <translation>Spur von Worker %1</translation>
    </message>
    <message>
        <source>idle at the playhead</source>
        <translation>untätig am Abspielkopf</translation>
    </message>
    <message>
        <source>Step %1, file of worker %2</source>
        <translation>Schritt %1, Datei von Worker %2</translation>
    </message>
    <message>
        <source>Step %1, manifest</source>
        <translation>Schritt %1, Manifest</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>Blase</translation>
    </message>
    <message>
        <source>%1 of micro-batch %2</source>
        <translation>%1 von Mikro-Batch %2</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>Stufe %1: %2</translation>
    </message>
    <message>
        <source>%1 to %2 ms; %3</source>
        <translation>%1 bis %2 ms; %3</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>to come</source>
        <translation>folgt noch</translation>
    </message>
</context>
<context>
    <name>CheckpointShelf</name>
    <message>
        <source>writing</source>
        <translation>wird geschrieben</translation>
    </message>
    <message>
        <source>synced</source>
        <translation>synchronisiert</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>umbenannt</translation>
    </message>
    <message>
        <source>committed</source>
        <translation>festgeschrieben</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>unvollständig</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>beschädigt</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>noch nicht</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>CheckpointView</name>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>saving</source>
        <translation>wird gespeichert</translation>
    </message>
    <message>
        <source>committed</source>
        <translation>festgeschrieben</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>unvollständig</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>beschädigt</translation>
    </message>
    <message>
        <source>not written yet: the files are still being saved</source>
        <translation>noch nicht geschrieben: Die Dateien werden noch gespeichert</translation>
    </message>
    <message>
        <source>being written, synced and renamed</source>
        <translation>wird geschrieben, synchronisiert und umbenannt</translation>
    </message>
    <message>
        <source>committed: this checkpoint counts</source>
        <translation>festgeschrieben: Dieser Checkpoint zählt</translation>
    </message>
    <message>
        <source>never written: a crash came first, so this checkpoint is partial</source>
        <translation>nie geschrieben: Ein Absturz kam zuvor, daher ist dieser Checkpoint unvollständig</translation>
    </message>
</context>
<context>
    <name>ClassPage</name>
    <message>
        <source>Class quiz · Lockstep</source>
        <translation>Klassenquiz · Lockstep</translation>
    </message>
    <message>
        <source>Class quiz</source>
        <translation>Klassenquiz</translation>
    </message>
    <message>
        <source>This quiz needs JavaScript. Please turn it on in your browser and reload the page.</source>
        <translation>Dieses Quiz braucht JavaScript. Schalte es bitte in deinem Browser ein und lade die Seite neu.</translation>
    </message>
    <message>
        <source>Connecting to the class…</source>
        <translation>Verbindung zur Klasse…</translation>
    </message>
    <message>
        <source>Join the class quiz</source>
        <translation>Beim Klassenquiz mitmachen</translation>
    </message>
    <message>
        <source>Type the code from the teacher&apos;s screen, and your name.</source>
        <translation>Gib den Code vom Bildschirm der Lehrkraft und deinen Namen ein.</translation>
    </message>
    <message>
        <source>Join code</source>
        <translation>Beitrittscode</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>Dein Name</translation>
    </message>
    <message>
        <source>Your teacher will see this name next to your answers.</source>
        <translation>Deine Lehrkraft sieht diesen Namen neben deinen Antworten.</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Beitreten</translation>
    </message>
    <message>
        <source>You&apos;re in!</source>
        <translation>Du bist dabei!</translation>
    </message>
    <message>
        <source>Waiting for the first question…</source>
        <translation>Warten auf die erste Frage…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Answers are closed.</source>
        <translation>Die Antworten sind geschlossen.</translation>
    </message>
    <message>
        <source>Wait for the teacher.</source>
        <translation>Warte auf die Lehrkraft.</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Deine Antwort</translation>
    </message>
    <message>
        <source>Right answer</source>
        <translation>Richtige Antwort</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>The next question comes when the teacher is ready.</source>
        <translation>Die nächste Frage kommt, wenn die Lehrkraft so weit ist.</translation>
    </message>
    <message>
        <source>The quiz is over</source>
        <translation>Das Quiz ist vorbei</translation>
    </message>
    <message>
        <source>Thanks for taking part!</source>
        <translation>Danke fürs Mitmachen!</translation>
    </message>
    <message>
        <source>You can close this page now.</source>
        <translation>Du kannst diese Seite jetzt schließen.</translation>
    </message>
    <message>
        <source>Class quiz · teacher · Lockstep</source>
        <translation>Klassenquiz · Lehrkraft · Lockstep</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung…</translation>
    </message>
    <message>
        <source>Quiz controls</source>
        <translation>Quiz-Steuerung</translation>
    </message>
    <message>
        <source>Open first question</source>
        <translation>Erste Frage öffnen</translation>
    </message>
    <message>
        <source>Close answers</source>
        <translation>Antworten schließen</translation>
    </message>
    <message>
        <source>Reveal the answer</source>
        <translation>Antwort zeigen</translation>
    </message>
    <message>
        <source>Next question</source>
        <translation>Nächste Frage</translation>
    </message>
    <message>
        <source>Download results (CSV)</source>
        <translation>Ergebnisse herunterladen (CSV)</translation>
    </message>
    <message>
        <source>Students, open</source>
        <translation>Lernende, öffnet</translation>
    </message>
    <message>
        <source>and type the code</source>
        <translation>und gebt den Code ein</translation>
    </message>
    <message>
        <source>QR code of the students&apos; address</source>
        <translation>QR-Code der Adresse für die Lernenden</translation>
    </message>
    <message>
        <source>Lobby locked</source>
        <translation>Lobby gesperrt</translation>
    </message>
    <message>
        <source>What the class answered</source>
        <translation>Was die Klasse geantwortet hat</translation>
    </message>
    <message>
        <source>The answer:</source>
        <translation>Die Antwort:</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>Rechenweg</translation>
    </message>
    <message>
        <source>See it in the lab</source>
        <translation>Im Labor ansehen</translation>
    </message>
    <message>
        <source>Worked with the first student&apos;s numbers; every student had their own.</source>
        <translation>Gerechnet mit den Zahlen der ersten Person; alle hatten ihre eigenen.</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Richtig</translation>
    </message>
    <message>
        <source>Join at</source>
        <translation>Mitmachen unter</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Students</source>
        <translation>Lernende</translation>
    </message>
    <message>
        <source>Lock the lobby</source>
        <translation>Lobby sperren</translation>
    </message>
    <message>
        <source>Could not reach the class server. Check that you are on the classroom Wi-Fi, then try again.</source>
        <translation>Der Klassenserver ist nicht erreichbar. Prüfe, ob du im WLAN des Klassenzimmers bist, und versuche es noch einmal.</translation>
    </message>
    <message>
        <source>Something went wrong (error {1}). Please try again.</source>
        <translation>Etwas ist schiefgegangen (Fehler {1}). Bitte versuche es noch einmal.</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Checking every 2 s</source>
        <translation>Prüft alle 2 s</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>Neue Verbindung…</translation>
    </message>
    <message>
        <source>Type the join code shown on the teacher&apos;s screen.</source>
        <translation>Gib den Beitrittscode vom Bildschirm der Lehrkraft ein.</translation>
    </message>
    <message>
        <source>Type your name, so your teacher knows who answered.</source>
        <translation>Gib deinen Namen ein, damit deine Lehrkraft weiß, wer geantwortet hat.</translation>
    </message>
    <message>
        <source>Joining…</source>
        <translation>Trete bei…</translation>
    </message>
    <message>
        <source>That code is not right. Check the code on the teacher&apos;s screen.</source>
        <translation>Dieser Code stimmt nicht. Sieh dir den Code auf dem Bildschirm der Lehrkraft an.</translation>
    </message>
    <message>
        <source>The teacher has locked the lobby, so nobody new can join right now.</source>
        <translation>Die Lehrkraft hat die Lobby gesperrt, gerade kann niemand Neues beitreten.</translation>
    </message>
    <message>
        <source>Too many tries at once. Wait a minute, then try again.</source>
        <translation>Zu viele Versuche auf einmal. Warte eine Minute und versuche es dann noch einmal.</translation>
    </message>
    <message>
        <source>The class is full.</source>
        <translation>Die Klasse ist voll.</translation>
    </message>
    <message>
        <source>You are no longer in the quiz: the teacher may have removed you, or the quiz was restarted. Join again with the code on the teacher&apos;s screen.</source>
        <translation>Du bist nicht mehr im Quiz: Die Lehrkraft hat dich vielleicht entfernt, oder das Quiz wurde neu gestartet. Tritt mit dem Code vom Bildschirm der Lehrkraft wieder bei.</translation>
    </message>
    <message>
        <source>You joined as {1}</source>
        <translation>Du bist dabei als {1}</translation>
    </message>
    <message>
        <source>{1} student has joined.</source>
        <translation>{1} Person ist beigetreten.</translation>
    </message>
    <message>
        <source>{1} students have joined.</source>
        <translation>{1} Personen sind beigetreten.</translation>
    </message>
    <message>
        <source>Question {1} of {2}</source>
        <translation>Frage {1} von {2}</translation>
    </message>
    <message>
        <source>Question {1}</source>
        <translation>Frage {1}</translation>
    </message>
    <message>
        <source>Choose one answer.</source>
        <translation>Wähle eine Antwort.</translation>
    </message>
    <message>
        <source>Choose every answer that is right.</source>
        <translation>Wähle jede Antwort, die richtig ist.</translation>
    </message>
    <message>
        <source>Put these in order. Type their letters, first to last, with spaces between them (for example: b a c).</source>
        <translation>Bring sie in die richtige Reihenfolge. Tippe ihre Buchstaben vom ersten bis zum letzten, mit Leerzeichen dazwischen (zum Beispiel: b a c).</translation>
    </message>
    <message>
        <source>Your order</source>
        <translation>Deine Reihenfolge</translation>
    </message>
    <message>
        <source>for example: b a c</source>
        <translation>zum Beispiel: b a c</translation>
    </message>
    <message>
        <source>Your answer, in {1}</source>
        <translation>Deine Antwort, in {1}</translation>
    </message>
    <message>
        <source>Answer received: {1} (read as {2})</source>
        <translation>Antwort erhalten: {1} (gelesen als {2})</translation>
    </message>
    <message>
        <source>Answer received: {1}</source>
        <translation>Antwort erhalten: {1}</translation>
    </message>
    <message>
        <source>You can change it until the teacher closes the question.</source>
        <translation>Du kannst sie ändern, bis die Lehrkraft die Frage schließt.</translation>
    </message>
    <message>
        <source>That was your last change: this answer counts.</source>
        <translation>Das war deine letzte Änderung: Diese Antwort zählt.</translation>
    </message>
    <message>
        <source>You can still change it {1} time until the teacher closes the question.</source>
        <translation>Du kannst sie noch {1}-mal ändern, bis die Lehrkraft die Frage schließt.</translation>
    </message>
    <message>
        <source>You can still change it {1} times until the teacher closes the question.</source>
        <translation>Du kannst sie noch {1}-mal ändern, bis die Lehrkraft die Frage schließt.</translation>
    </message>
    <message>
        <source>Choose an answer first.</source>
        <translation>Wähle zuerst eine Antwort.</translation>
    </message>
    <message>
        <source>Choose at least one answer first.</source>
        <translation>Wähle zuerst mindestens eine Antwort.</translation>
    </message>
    <message>
        <source>Type your answer first.</source>
        <translation>Gib zuerst deine Antwort ein.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Sende…</translation>
    </message>
    <message>
        <source>That answer could not be read. Type a number, like 5 or 2.5.</source>
        <translation>Diese Antwort ist nicht lesbar. Gib eine Zahl ein, etwa 5 oder 2,5.</translation>
    </message>
    <message>
        <source>This question is not open for answers any more.</source>
        <translation>Für diese Frage werden keine Antworten mehr angenommen.</translation>
    </message>
    <message>
        <source>Too many answers at once. Wait a moment, then send again.</source>
        <translation>Zu viele Antworten auf einmal. Warte kurz und sende dann noch einmal.</translation>
    </message>
    <message>
        <source>You did not send an answer.</source>
        <translation>Du hast keine Antwort gesendet.</translation>
    </message>
    <message>
        <source>Your answer: {1}</source>
        <translation>Deine Antwort: {1}</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>Richtig</translation>
    </message>
    <message>
        <source>Close, but not quite</source>
        <translation>Knapp daneben</translation>
    </message>
    <message>
        <source>Not right this time</source>
        <translation>Diesmal nicht richtig</translation>
    </message>
    <message>
        <source>No answer sent</source>
        <translation>Keine Antwort gesendet</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>You got {1} of {2} right</source>
        <translation>Du hast {1} von {2} richtig</translation>
    </message>
    <message>
        <source>The quiz is over.</source>
        <translation>Das Quiz ist vorbei.</translation>
    </message>
    <message>
        <source>The quiz server cannot be reached. Is lockstep still running?</source>
        <translation>Der Quizserver ist nicht erreichbar. Läuft lockstep noch?</translation>
    </message>
    <message>
        <source>That did not work (error {1}).</source>
        <translation>Das hat nicht geklappt (Fehler {1}).</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <source>Lobby</source>
        <translation>Lobby</translation>
    </message>
    <message>
        <source>Answers open</source>
        <translation>Antworten offen</translation>
    </message>
    <message>
        <source>Answers closed</source>
        <translation>Antworten geschlossen</translation>
    </message>
    <message>
        <source>Answer revealed</source>
        <translation>Antwort gezeigt</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>Finish the quiz</source>
        <translation>Quiz beenden</translation>
    </message>
    <message>
        <source>Unlock the lobby</source>
        <translation>Lobby entsperren</translation>
    </message>
    <message>
        <source>Nobody has joined yet.</source>
        <translation>Noch niemand ist beigetreten.</translation>
    </message>
    <message>
        <source>{1} student has joined</source>
        <translation>{1} Person ist beigetreten</translation>
    </message>
    <message>
        <source>{1} students have joined</source>
        <translation>{1} Personen sind beigetreten</translation>
    </message>
    <message>
        <source>{1} of {2} answered</source>
        <translation>{1} von {2} haben geantwortet</translation>
    </message>
    <message>
        <source>✓ right</source>
        <translation>✓ richtig</translation>
    </message>
    <message>
        <source>a common mistake</source>
        <translation>ein typischer Fehler</translation>
    </message>
    <message>
        <source>close</source>
        <translation>knapp</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>hat geantwortet</translation>
    </message>
    <message>
        <source>not answered yet</source>
        <translation>hat noch nicht geantwortet</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>Nobody yet</source>
        <translation>Noch niemand</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove {1}</source>
        <translation>{1} entfernen</translation>
    </message>
    <message>
        <source>{1} of {2}</source>
        <translation>{1} von {2}</translation>
    </message>
    <message>
        <source>Nobody took part.</source>
        <translation>Niemand hat teilgenommen.</translation>
    </message>
    <message>
        <source>On average the class got {1} of {2} right.</source>
        <translation>Im Schnitt hatte die Klasse {1} von {2} richtig.</translation>
    </message>
    <message>
        <source>On average the class got {1} right.</source>
        <translation>Im Schnitt hatte die Klasse {1} richtig.</translation>
    </message>
    <message>
        <source>Remove {1} from the quiz?</source>
        <translation>{1} aus dem Quiz entfernen?</translation>
    </message>
    <message>
        <source>The results could not be downloaded.</source>
        <translation>Die Ergebnisse konnten nicht heruntergeladen werden.</translation>
    </message>
    <message>
        <source>This page is no longer signed in as the teacher (the quiz may have been restarted). Open the newest teacher link that lockstep printed.</source>
        <translation>Diese Seite ist nicht mehr als Lehrkraft angemeldet (vielleicht wurde das Quiz neu gestartet). Öffne den neuesten Lehrkraft-Link, den lockstep ausgegeben hat.</translation>
    </message>
    <message>
        <source>This page is no longer signed in as the teacher.</source>
        <translation>Diese Seite ist nicht mehr als Lehrkraft angemeldet.</translation>
    </message>
    <message>
        <source>{1} wrong codes tried; the code changed {2} times.</source>
        <translation>{1} falsche Codes versucht; der Code wurde {2}-mal geändert.</translation>
    </message>
    <message>
        <source>Closes in {1}</source>
        <translation>Schließt in {1}</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Überspringen</translation>
    </message>
    <message>
        <source>Timer</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>What the screen shows</source>
        <translation>Was der Bildschirm zeigt</translation>
    </message>
    <message>
        <source>Names</source>
        <translation>Namen</translation>
    </message>
    <message>
        <source>Ranking</source>
        <translation>Rangliste</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>Histogramm</translation>
    </message>
    <message>
        <source>Reports to print</source>
        <translation>Berichte zum Drucken</translation>
    </message>
    <message>
        <source>The histogram is hidden.</source>
        <translation>Das Histogramm ist ausgeblendet.</translation>
    </message>
    <message>
        <source>Names are hidden from the screen; tick Names to see them.</source>
        <translation>Die Namen sind auf dem Bildschirm verborgen; setze ein Häkchen bei „Namen“, um sie zu sehen.</translation>
    </message>
    <message>
        <source>Student {1}</source>
        <translation>Schüler/in {1}</translation>
    </message>
    <message>
        <source>Pick {1} to remove</source>
        <translation>{1} zum Entfernen auswählen</translation>
    </message>
    <message>
        <source>Remove the {1} ticked</source>
        <translation>Die {1} markierten entfernen</translation>
    </message>
    <message>
        <source>Remove {1} students from the quiz?</source>
        <translation>{1} Schüler/innen aus dem Quiz entfernen?</translation>
    </message>
    <message>
        <source>{1} student</source>
        <translation>{1} Schüler/in</translation>
    </message>
    <message>
        <source>{1} students</source>
        <translation>{1} Schüler/innen</translation>
    </message>
</context>
<context>
    <name>ClassWindow</name>
    <message>
        <source>Lobby: students are joining</source>
        <translation>Lobby: Lernende treten bei</translation>
    </message>
    <message>
        <source>Answering</source>
        <translation>Antwortphase</translation>
    </message>
    <message>
        <source>Answers closed</source>
        <translation>Antworten geschlossen</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>Die Antwort</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Punktestand</translation>
    </message>
    <message>
        <source>one student</source>
        <translation>eines Schülers</translation>
    </message>
    <message>
        <source>Student %1</source>
        <translation>Schüler/in %1</translation>
    </message>
</context>
<context>
    <name>ClusterView</name>
    <message>
        <source>first gradient entry</source>
        <translation>erster Gradienteneintrag</translation>
    </message>
    <message>
        <source>step %1 · t = %2 s</source>
        <translation>Schritt %1 · t = %2 s</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>Repliken stimmen überein</translation>
    </message>
    <message>
        <source>ring all-reduce</source>
        <translation>Ring-All-Reduce</translation>
    </message>
    <message>
        <source>parameter server (worker 0)</source>
        <translation>Parameterserver (Worker 0)</translation>
    </message>
    <message>
        <source>binary-tree all-reduce</source>
        <translation>Binärbaum-All-Reduce</translation>
    </message>
    <message>
        <source>no synchronisation</source>
        <translation>keine Synchronisation</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>parameter server</source>
        <translation>Parameterserver</translation>
    </message>
    <message>
        <source>tree</source>
        <translation>Baum</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 Worker</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 Worker</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>No run loaded</source>
        <translation>Kein Lauf geladen</translation>
    </message>
    <message>
        <source>no step finished yet</source>
        <translation>noch kein Schritt abgeschlossen</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>Repliken weichen ab</translation>
    </message>
    <message>
        <source>Δ: how far each replica is from the replicas&apos; mean</source>
        <translation>Δ: wie weit jede Replik vom Mittelwert der Repliken entfernt ist</translation>
    </message>
    <message>
        <source>a pipeline: activations go forward, gradients come back</source>
        <translation>eine Pipeline: Aktivierungen gehen vorwärts, Gradienten kommen zurück</translation>
    </message>
    <message>
        <source>every layer split: an all-reduce inside each layer (%1)</source>
        <translation>jede Schicht geteilt: ein All-Reduce in jeder Schicht (%1)</translation>
    </message>
    <message>
        <source>%1 replicas of a %2-stage pipeline, %3 between them</source>
        <translation>%1 Repliken einer Pipeline mit %2 Stufen, %3 zwischen ihnen</translation>
    </message>
    <message>
        <source>hierarchical all-reduce (inside machines, then across)</source>
        <translation>hierarchisches All-Reduce (erst in den Maschinen, dann zwischen ihnen)</translation>
    </message>
    <message>
        <source>hierarchical</source>
        <translation>hierarchisch</translation>
    </message>
    <message>
        <source>%1 machines of %2</source>
        <translation>%1 Maschinen mit je %2</translation>
    </message>
</context>
<context>
    <name>ContinuationPlot</name>
    <message>
        <source>uninterrupted run</source>
        <translation>ununterbrochener Lauf</translation>
    </message>
    <message>
        <source>after a full restore</source>
        <translation>nach vollständiger Wiederherstellung</translation>
    </message>
    <message>
        <source>after a weights-only restore</source>
        <translation>nach Wiederherstellung nur der Gewichte</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>back to step %1</source>
        <translation>zurück zu Schritt %1</translation>
    </message>
    <message>
        <source>back to the start</source>
        <translation>zurück zum Anfang</translation>
    </message>
    <message>
        <source>Same loss as the uninterrupted run at every step; the final weights are identical bit for bit.</source>
        <translation>In jedem Schritt derselbe Verlust wie im ununterbrochenen Lauf; die finalen Gewichte sind bitgenau identisch.</translation>
    </message>
    <message>
        <source>From step %1 on the loss differs from the uninterrupted run by up to %2; the final weights are the same.</source>
        <translation>Ab Schritt %1 weicht der Verlust um bis zu %2 vom ununterbrochenen Lauf ab; die finalen Gewichte sind gleich.</translation>
    </message>
    <message>
        <source>From step %1 on the loss differs from the uninterrupted run by up to %2; the final weights differ.</source>
        <translation>Ab Schritt %1 weicht der Verlust um bis zu %2 vom ununterbrochenen Lauf ab; die finalen Gewichte unterscheiden sich.</translation>
    </message>
</context>
<context>
    <name>Fault</name>
    <message>
        <source>Under %1 the workers read the one model the server holds: there are no replicas to copy parameters between.</source>
        <translation>Bei %1 lesen die Worker das eine Modell, das der Server hält: Es gibt keine Repliken, zwischen denen Parameter kopiert werden könnten.</translation>
    </message>
    <message>
        <source>A broadcast is priced by the cost model: switch to the modelled clock.</source>
        <translation>Ein Broadcast wird vom Kostenmodell bewertet: Wechsle zur modellierten Uhr.</translation>
    </message>
    <message>
        <source>With one worker there is nobody to copy the parameters to.</source>
        <translation>Mit einem Worker gibt es niemanden, zu dem die Parameter kopiert werden könnten.</translation>
    </message>
    <message>
        <source>Crash</source>
        <translation>Abstürzen</translation>
    </message>
    <message>
        <source>worker %1 crashed</source>
        <translation>Worker %1 abgestürzt</translation>
    </message>
    <message>
        <source>With one worker there is nobody left to go on.</source>
        <translation>Mit nur einem Worker bleibt niemand übrig, der weitermacht.</translation>
    </message>
    <message>
        <source>Crash during next checkpoint</source>
        <translation>Beim nächsten Checkpoint abstürzen</translation>
    </message>
    <message>
        <source>worker %1 crashes in the next checkpoint</source>
        <translation>Worker %1 stürzt beim nächsten Checkpoint ab</translation>
    </message>
    <message>
        <source>This scenario saves no checkpoints, so there is no next checkpoint to crash in. Give it a checkpoint policy first.</source>
        <translation>Dieses Szenario speichert keine Checkpoints, also gibt es keinen nächsten Checkpoint, in dem ein Absturz passieren könnte. Gib ihm zuerst eine Checkpoint-Regel.</translation>
    </message>
    <message>
        <source>With backup workers a crash is a gradient that never arrives; crash the worker in a step instead.</source>
        <translation>Mit Reserve-Workern ist ein Absturz nur ein Gradient, der nie ankommt; lass den Worker stattdessen in einem Schritt abstürzen.</translation>
    </message>
    <message>
        <source>Pause for 2 steps</source>
        <translation>Für 2 Schritte anhalten</translation>
    </message>
    <message>
        <source>worker %1 paused for 2 steps</source>
        <translation>Worker %1 für 2 Schritte angehalten</translation>
    </message>
    <message>
        <source>“%1” cannot change while the run goes on.</source>
        <translation>„%1“ kann sich nicht ändern, während der Lauf weitergeht.</translation>
    </message>
    <message>
        <source>Slow down 3×</source>
        <translation>3× verlangsamen</translation>
    </message>
    <message>
        <source>worker %1 slowed 3×</source>
        <translation>Worker %1 3× verlangsamt</translation>
    </message>
    <message>
        <source>Back to full speed</source>
        <translation>Wieder volle Geschwindigkeit</translation>
    </message>
    <message>
        <source>worker %1 back to full speed</source>
        <translation>Worker %1 wieder mit voller Geschwindigkeit</translation>
    </message>
    <message>
        <source>Reduce buckets out of order</source>
        <translation>Buckets in falscher Reihenfolge reduzieren</translation>
    </message>
    <message>
        <source>worker %1 reduced its buckets out of order</source>
        <translation>Worker %1 hat seine Buckets in falscher Reihenfolge reduziert</translation>
    </message>
    <message>
        <source>This run sends its whole gradient in one bucket: there is no order to get wrong.</source>
        <translation>Dieser Lauf schickt seinen ganzen Gradienten in einem Bucket: Es gibt keine Reihenfolge, die falsch sein könnte.</translation>
    </message>
    <message>
        <source>A sharded worker&apos;s optimizer state is its own shard: there is no whole state to copy to the others.</source>
        <translation>Der Optimiererzustand eines geshardeten Workers ist nur sein eigener Shard: Es gibt keinen ganzen Zustand, den man zu den anderen kopieren könnte.</translation>
    </message>
    <message>
        <source>Slow its link 10×</source>
        <translation>Seine Verbindung 10× verlangsamen</translation>
    </message>
    <message>
        <source>worker %1&apos;s link slowed 10×</source>
        <translation>Verbindung von Worker %1 10× verlangsamt</translation>
    </message>
    <message>
        <source>In this run the workers send each other nothing: there is no link to slow.</source>
        <translation>In diesem Lauf schicken sich die Worker nichts: Es gibt keine Verbindung, die sich verlangsamen ließe.</translation>
    </message>
    <message>
        <source>Under %1 a link is slowed in the scenario (failures: slow-link), not while the run goes on; switch to bsp to slow one now.</source>
        <translation>Unter %1 wird eine Verbindung im Szenario verlangsamt (failures: slow-link), nicht während der Lauf weitergeht; wechsle zu bsp, um jetzt eine zu verlangsamen.</translation>
    </message>
    <message>
        <source>worker %1&apos;s parameters copied to every worker</source>
        <translation>Parameter von Worker %1 zu jedem Worker kopiert</translation>
    </message>
    <message>
        <source>worker %1 paused for %2 s</source>
        <translation>Worker %1 für %2 s angehalten</translation>
    </message>
    <message>
        <source>worker %1 slowed %2×</source>
        <translation>Worker %1 %2× verlangsamt</translation>
    </message>
    <message>
        <source>worker %1&apos;s link slowed %2×</source>
        <translation>Verbindung von Worker %1 %2× verlangsamt</translation>
    </message>
</context>
<context>
    <name>Lockstep</name>
    <message>
        <source>Lockstep does not speak &apos;%1&apos; (it speaks %2)</source>
        <translation>Lockstep spricht kein &apos;%1&apos; (es spricht %2)</translation>
    </message>
    <message>
        <source>right</source>
        <comment>histogram bar</comment>
        <translation>richtig</translation>
    </message>
    <message>
        <source>for example 2.5, 2,5 or 5/2</source>
        <translation>zum Beispiel 2.5, 2,5 oder 5/2</translation>
    </message>
    <message>
        <source>Part of the answer is missing (%1).</source>
        <translation>Ein Teil der Antwort fehlt (%1).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number I can read (%2).</source>
        <translation>&apos;%1&apos; ist keine Zahl, die ich lesen kann (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has a space inside the number: write it as one number (%2).</source>
        <translation>&apos;%1&apos; enthält ein Leerzeichen in der Zahl: Schreib sie als eine einzige Zahl (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; mixes commas and points in a way that is not clear: use one decimal separator (%2).</source>
        <translation>&apos;%1&apos; mischt Kommas und Punkte auf unklare Weise: Verwende nur ein Dezimaltrennzeichen (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has more than one decimal separator (%2).</source>
        <translation>&apos;%1&apos; hat mehr als ein Dezimaltrennzeichen (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; could be read two ways (a thousands separator or a decimal comma): write %2 or %3.</source>
        <translation>&apos;%1&apos; lässt sich auf zwei Arten lesen (als Tausendertrennzeichen oder als Dezimalkomma): Schreib %2 oder %3.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is too large to be a useful answer.</source>
        <translation>&apos;%1&apos; ist zu groß, um eine sinnvolle Antwort zu sein.</translation>
    </message>
    <message>
        <source>Type a number, %1.</source>
        <translation>Gib eine Zahl ein, %1.</translation>
    </message>
    <message>
        <source>The unit, if you write one, is %1.</source>
        <translation>Die Einheit, falls du eine angibst, ist %1.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has more than one &apos;/&apos;: write one fraction such as 5/2.</source>
        <translation>&apos;%1&apos; enthält mehr als ein &apos;/&apos;: Schreib einen einzigen Bruch wie 5/2.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; divides by zero: the number below the line cannot be 0.</source>
        <translation>&apos;%1&apos; teilt durch null: Die Zahl unter dem Bruchstrich darf nicht 0 sein.</translation>
    </message>
    <message>
        <source>letters a to %1 or numbers 1 to %2</source>
        <translation>Buchstaben a bis %1 oder Zahlen 1 bis %2</translation>
    </message>
    <message>
        <source>Choose one answer (%1).</source>
        <translation>Wähle eine Antwort (%1).</translation>
    </message>
    <message>
        <source>Choose your answers (%1).</source>
        <translation>Wähle deine Antworten (%1).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of the choices (%2).</source>
        <translation>&apos;%1&apos; gehört nicht zu den Auswahlmöglichkeiten (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is there twice: name each choice once.</source>
        <translation>&apos;%1&apos; kommt doppelt vor: Nenne jede Auswahl nur einmal.</translation>
    </message>
    <message>
        <source>Choose exactly one answer (%1).</source>
        <translation>Wähle genau eine Antwort (%1).</translation>
    </message>
    <message>
        <source>Put all %1 items in order, each once (for example c, a, b, ...).</source>
        <translation>Bring alle %1 Einträge in eine Reihenfolge, jeden genau einmal (zum Beispiel c, a, b, ...).</translation>
    </message>
    <message>
        <source>The page %1 is missing from this build.</source>
        <translation>Die Seite %1 fehlt in dieser Programmversion.</translation>
    </message>
    <message>
        <source>The request&apos;s body is not JSON: %1 at byte %2.</source>
        <translation>Der Inhalt der Anfrage ist kein JSON: %1 bei Byte %2.</translation>
    </message>
    <message>
        <source>The request&apos;s body must be a JSON object.</source>
        <translation>Der Inhalt der Anfrage muss ein JSON-Objekt sein.</translation>
    </message>
    <message>
        <source>The request needs &quot;%1&quot;.</source>
        <translation>Die Anfrage braucht &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be text.</source>
        <translation>&quot;%1&quot; muss Text sein.</translation>
    </message>
    <message>
        <source>QR code of the class address</source>
        <translation>QR-Code der Klassenadresse</translation>
    </message>
    <message>
        <source>The server could not do that: %1</source>
        <translation>Der Server konnte das nicht ausführen: %1</translation>
    </message>
    <message>
        <source>The request is too large: at most %1 bytes.</source>
        <translation>Die Anfrage ist zu groß: höchstens %1 Bytes.</translation>
    </message>
    <message>
        <source>%1 only answers GET.</source>
        <translation>%1 beantwortet nur GET.</translation>
    </message>
    <message>
        <source>/teacher only answers GET.</source>
        <translation>/teacher beantwortet nur GET.</translation>
    </message>
    <message>
        <source>There is no page here. Students open the address on the projector.</source>
        <translation>Hier gibt es keine Seite. Die Lernenden öffnen die Adresse, die der Projektor zeigt.</translation>
    </message>
    <message>
        <source>/api/join only answers POST.</source>
        <translation>/api/join beantwortet nur POST.</translation>
    </message>
    <message>
        <source>No such API: /api/%1.</source>
        <translation>Diese API gibt es nicht: /api/%1.</translation>
    </message>
    <message>
        <source>/api/%1 only answers %2.</source>
        <translation>/api/%1 beantwortet nur %2.</translation>
    </message>
    <message>
        <source>No question is shown now.</source>
        <translation>Gerade wird keine Frage gezeigt.</translation>
    </message>
    <message>
        <source>That answer is too long: at most %1 characters.</source>
        <translation>Diese Antwort ist zu lang: höchstens %1 Zeichen.</translation>
    </message>
    <message>
        <source>The teacher&apos;s API needs the teacher&apos;s token.</source>
        <translation>Die API der Lehrkraft braucht das Token der Lehrkraft.</translation>
    </message>
    <message>
        <source>/api/teacher/%1 only answers %2.</source>
        <translation>/api/teacher/%1 beantwortet nur %2.</translation>
    </message>
    <message>
        <source>The server is not listening yet.</source>
        <translation>Der Server nimmt noch keine Verbindungen an.</translation>
    </message>
    <message>
        <source>&quot;locked&quot; must be true or false.</source>
        <translation>&quot;locked&quot; muss true oder false sein.</translation>
    </message>
    <message>
        <source>No such API: /api/teacher/%1.</source>
        <translation>Diese API gibt es nicht: /api/teacher/%1.</translation>
    </message>
    <message>
        <source>class quiz: bank &apos;%1&apos; has no question %2</source>
        <translation>Klassenquiz: Der Fragenkatalog &apos;%1&apos; hat keine Frage %2</translation>
    </message>
    <message>
        <source>class quiz: bank &apos;%1&apos; has no questions</source>
        <translation>Klassenquiz: Der Fragenkatalog &apos;%1&apos; enthält keine Fragen</translation>
    </message>
    <message>
        <source>Too many joins from this computer; wait a minute and try again.</source>
        <translation>Zu viele Beitritte von diesem Computer; warte eine Minute und versuch es dann noch einmal.</translation>
    </message>
    <message>
        <source>That join code is not this class&apos;s. Check the code on the projector.</source>
        <translation>Dieser Beitrittscode gehört nicht zu dieser Klasse. Prüfe den Code am Projektor.</translation>
    </message>
    <message>
        <source>Type your name to join.</source>
        <translation>Gib deinen Namen ein, um beizutreten.</translation>
    </message>
    <message>
        <source>That name is too long: at most %1 characters.</source>
        <translation>Dieser Name ist zu lang: höchstens %1 Zeichen.</translation>
    </message>
    <message>
        <source>A name cannot hold control characters.</source>
        <translation>Ein Name darf keine Steuerzeichen enthalten.</translation>
    </message>
    <message>
        <source>The teacher has locked the lobby: no one can join now.</source>
        <translation>Die Lehrkraft hat die Lobby gesperrt: Niemand kann jetzt beitreten.</translation>
    </message>
    <message>
        <source>The class is full (%1 students).</source>
        <translation>Die Klasse ist voll (%1 Lernende).</translation>
    </message>
    <message>
        <source>This page is not in the class quiz: join again.</source>
        <translation>Diese Seite gehört nicht zum Klassenquiz: Tritt erneut bei.</translation>
    </message>
    <message>
        <source>The teacher removed you from this quiz.</source>
        <translation>Die Lehrkraft hat dich aus diesem Quiz entfernt.</translation>
    </message>
    <message>
        <source>Too many requests from this page; slow down.</source>
        <translation>Zu viele Anfragen von dieser Seite; mach etwas langsamer.</translation>
    </message>
    <message>
        <source>The first question is not open yet.</source>
        <translation>Die erste Frage ist noch nicht geöffnet.</translation>
    </message>
    <message>
        <source>This question is closed: answers are no longer taken.</source>
        <translation>Diese Frage ist geschlossen: Antworten werden nicht mehr angenommen.</translation>
    </message>
    <message>
        <source>That answer is for another question; the question open now is &quot;%1&quot;.</source>
        <translation>Diese Antwort gehört zu einer anderen Frage; gerade ist die Frage &quot;%1&quot; offen.</translation>
    </message>
    <message>
        <source>You have changed this answer %1 times, the most allowed; your last answer counts.</source>
        <translation>Du hast diese Antwort %1-mal geändert, öfter geht es nicht; deine letzte Antwort zählt.</translation>
    </message>
    <message>
        <source>You did not answer this question.</source>
        <translation>Du hast diese Frage nicht beantwortet.</translation>
    </message>
    <message>
        <source>The quiz has begun: close, reveal or go to the next question instead.</source>
        <translation>Das Quiz hat begonnen: Schließe stattdessen die Frage, decke sie auf oder geh zur nächsten Frage.</translation>
    </message>
    <message>
        <source>No question is open.</source>
        <translation>Keine Frage ist offen.</translation>
    </message>
    <message>
        <source>Close the question before revealing it.</source>
        <translation>Schließe die Frage, bevor du sie aufdeckst.</translation>
    </message>
    <message>
        <source>No closed question to reveal.</source>
        <translation>Keine geschlossene Frage zum Aufdecken.</translation>
    </message>
    <message>
        <source>Reveal this question before going on.</source>
        <translation>Decke diese Frage auf, bevor du weitermachst.</translation>
    </message>
    <message>
        <source>No student %1 is in the class.</source>
        <translation>%1 ist nicht in dieser Klasse.</translation>
    </message>
    <message>
        <source>close, not within the tolerance</source>
        <translation>knapp daneben, nicht innerhalb der Toleranz</translation>
    </message>
    <message>
        <source>other</source>
        <comment>histogram bar</comment>
        <translation>andere</translation>
    </message>
    <message>
        <source>--bind: &apos;%1&apos; is not an address; give one of this machine&apos;s addresses, like 192.168.1.20, or localhost</source>
        <translation>--bind: &apos;%1&apos; ist keine Adresse; gib eine der Adressen dieses Computers an, etwa 192.168.1.20, oder localhost</translation>
    </message>
    <message>
        <source>--bind: &apos;%1&apos; would listen on every address, public ones too; give the classroom network&apos;s address</source>
        <translation>--bind: &apos;%1&apos; würde auf jeder Adresse lauschen, auch auf öffentlichen; gib die Adresse des Klassenraumnetzes an</translation>
    </message>
    <message>
        <source>--bind: %1 is a public address; a class quiz listens only on a private (classroom) network: 10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10 or loopback</source>
        <translation>--bind: %1 ist eine öffentliche Adresse; ein Klassenquiz lauscht nur in einem privaten Netz (Klassenraum): 10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10 oder Loopback</translation>
    </message>
    <message>
        <source>class quiz: cannot listen on %1 port %2: %3</source>
        <translation>Klassenquiz: kann nicht auf %1, Port %2 lauschen: %3</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule sum: %1 = %2</source>
        <translation>lockstep::reduce, Regel sum: %1 = %2</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule mean: (%1) / %2 = %3</source>
        <translation>lockstep::reduce, Regel mean: (%1) / %2 = %3</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule weighted-mean: (%1) / (%2) = %3</source>
        <translation>lockstep::reduce, Regel weighted-mean: (%1) / (%2) = %3</translation>
    </message>
    <message>
        <source>the engine&apos;s %1 (%2) gives %3</source>
        <translation>%1 der Engine (%2) ergibt %3</translation>
    </message>
    <message>
        <source>no quiz bank &apos;%1&apos; (known: %2, or give a file)</source>
        <translation>kein Fragenkatalog &apos;%1&apos; (bekannt: %2, oder gib eine Datei an)</translation>
    </message>
    <message>
        <source>found from the program&apos;s folder</source>
        <translation>über den Programmordner gefunden</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>nicht gefunden</translation>
    </message>
    <message>
        <source>resources: not found (expected in %1; set LOCKSTEP_RESOURCES to the folder that holds lessons/, scenarios/ and quizzes/)
</source>
        <translation>Ressourcen: nicht gefunden (erwartet in %1; setze LOCKSTEP_RESOURCES auf den Ordner, der lessons/, scenarios/ und quizzes/ enthält)
</translation>
    </message>
    <message>
        <source>resources: %1 (%2)
</source>
        <translation>Ressourcen: %1 (%2)
</translation>
    </message>
    <message>
        <source>your own lessons: %1
</source>
        <translation>eigene Lektionen: %1
</translation>
    </message>
    <message>
        <source>your own lessons: %1 (none yet)
</source>
        <translation>eigene Lektionen: %1 (noch keine)
</translation>
    </message>
    <message>
        <source>a student profile needs a name</source>
        <translation>ein Profil braucht einen Namen</translation>
    </message>
    <message>
        <source>a student&apos;s name has at most %1 characters</source>
        <translation>ein Name hat höchstens %1 Zeichen</translation>
    </message>
    <message>
        <source>%1: %2; it was set aside as %1.unreadable and progress starts afresh</source>
        <translation>%1: %2; die Datei wurde als %1.unreadable beiseitegelegt, und der Fortschritt beginnt von vorn</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>kein gültiges JSON (%1)</translation>
    </message>
    <message>
        <source>version must be %1</source>
        <translation>Version muss %1 sein</translation>
    </message>
    <message>
        <source>%1: cannot create the folder</source>
        <translation>%1: Ordner kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>%1: cannot write progress: %2</source>
        <translation>%1: Fortschritt kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>You answered %1%2.</source>
        <translation>Deine Antwort war %1%2.</translation>
    </message>
    <message>
        <source>Correct.</source>
        <translation>Richtig.</translation>
    </message>
    <message>
        <source>If you meant %1%, write the % sign, or write it as a fraction: %2.</source>
        <translation>Wenn du %1% gemeint hast, schreib das Prozentzeichen dazu, oder schreib es als Bruch: %2.</translation>
    </message>
    <message>
        <source>Close, but not close enough (within %1 of the answer counts): check your rounding, and keep more digits until the last step.</source>
        <translation>Knapp, aber nicht knapp genug (es zählt, was höchstens %1 von der Antwort abweicht): Prüfe deine Rundung und behalte bis zum letzten Schritt mehr Stellen.</translation>
    </message>
    <message>
        <source>That is not it yet.</source>
        <translation>Das ist es noch nicht.</translation>
    </message>
    <message>
        <source>Correct: that is the order.</source>
        <translation>Richtig: Das ist die Reihenfolge.</translation>
    </message>
    <message>
        <source>%1 of the %2 items are in the right place.</source>
        <translation>%1 der %2 Einträge stehen an der richtigen Stelle.</translation>
    </message>
    <message>
        <source>You chose (%1): that is not the best answer.</source>
        <translation>Du hast (%1) gewählt: Das ist nicht die beste Antwort.</translation>
    </message>
    <message>
        <source>%1 of your choices is right</source>
        <translation>%1 deiner Auswahlen ist richtig</translation>
    </message>
    <message>
        <source>%1 of your choices are right</source>
        <translation>%1 deiner Auswahlen sind richtig</translation>
    </message>
    <message>
        <source>%1 is not</source>
        <comment>of your choices</comment>
        <translation>%1 ist es nicht</translation>
    </message>
    <message>
        <source>%1 are not</source>
        <comment>of your choices</comment>
        <translation>%1 sind es nicht</translation>
    </message>
    <message>
        <source>%1 right one is missing</source>
        <translation>%1 richtige fehlt</translation>
    </message>
    <message>
        <source>%1 right ones are missing</source>
        <translation>%1 richtige fehlen</translation>
    </message>
    <message>
        <source>%1, %2, and %3.</source>
        <comment>choices: right, wrong, missing</comment>
        <translation>%1, %2 und %3.</translation>
    </message>
    <message>
        <source>Put these in order.</source>
        <translation>Bring diese in die richtige Reihenfolge.</translation>
    </message>
    <message>
        <source>(in %1)</source>
        <comment>the answer&apos;s unit</comment>
        <translation>(in %1)</translation>
    </message>
    <message>
        <source>%1: cannot read the list of students</source>
        <translation>%1: Die Liste der Lernenden kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>%1: names no student (one per line)</source>
        <translation>%1: enthält keine Namen (einen pro Zeile)</translation>
    </message>
    <message>
        <source>This teacher&apos;s link was used already, or is not this quiz&apos;s. Each link opens the teacher&apos;s page once: open the newest one lockstep printed.</source>
        <translation>Dieser Lehrkraft-Link wurde schon benutzt oder gehört nicht zu diesem Quiz. Jeder Link öffnet die Seite der Lehrkraft nur einmal: Öffne den neuesten, den lockstep ausgegeben hat.</translation>
    </message>
    <message>
        <source>The teacher&apos;s page is at /teacher.</source>
        <translation>Die Seite der Lehrkraft ist unter /teacher.</translation>
    </message>
    <message>
        <source>The teacher&apos;s page opens from the teacher&apos;s link that lockstep printed; each link works once.</source>
        <translation>Die Seite der Lehrkraft öffnet sich über den Lehrkraft-Link, den lockstep ausgegeben hat; jeder Link gilt nur einmal.</translation>
    </message>
    <message>
        <source>The teacher&apos;s API answers only its own page.</source>
        <translation>Die Schnittstelle der Lehrkraft antwortet nur ihrer eigenen Seite.</translation>
    </message>
    <message>
        <source>Live updates are for the students who joined and the teacher: the address needs their token.</source>
        <translation>Live-Aktualisierungen gibt es nur für beigetretene Schülerinnen und Schüler und die Lehrkraft: Die Adresse braucht ihr Token.</translation>
    </message>
    <message>
        <source>Too many connections from your address (at most %1); close some pages and try again.</source>
        <translation>Zu viele Verbindungen von deiner Adresse (höchstens %1); schließe einige Seiten und versuche es noch einmal.</translation>
    </message>
    <message>
        <source>The class server is full; try again in a moment.</source>
        <translation>Der Klassen-Server ist voll; versuche es gleich noch einmal.</translation>
    </message>
    <message>
        <source>The request took too long to arrive: at most %1 s.</source>
        <translation>Die Anfrage kam zu langsam an: höchstens %1 s.</translation>
    </message>
    <message>
        <source>Send one request at a time and wait for its answer.</source>
        <translation>Sende eine Anfrage nach der anderen und warte jeweils auf die Antwort.</translation>
    </message>
    <message>
        <source>The request&apos;s address is too long: at most %1 bytes.</source>
        <translation>Die Adresse der Anfrage ist zu lang: höchstens %1 Bytes.</translation>
    </message>
    <message>
        <source>The request&apos;s headers are too long: at most %1 bytes.</source>
        <translation>Die Kopfzeilen der Anfrage sind zu lang: höchstens %1 Bytes.</translation>
    </message>
    <message>
        <source>The request&apos;s first line is not &quot;METHOD /path HTTP/1.1&quot;.</source>
        <translation>Die erste Zeile der Anfrage hat nicht die Form „METHODE /pfad HTTP/1.1“.</translation>
    </message>
    <message>
        <source>The request has too many headers: at most %1.</source>
        <translation>Die Anfrage hat zu viele Kopfzeilen: höchstens %1.</translation>
    </message>
    <message>
        <source>A header of the request is not &quot;Name: value&quot;.</source>
        <translation>Eine Kopfzeile der Anfrage hat nicht die Form „Name: Wert“.</translation>
    </message>
    <message>
        <source>The request&apos;s Content-Length is not one number.</source>
        <translation>Die Content-Length der Anfrage ist nicht genau eine Zahl.</translation>
    </message>
    <message>
        <source>Send the request&apos;s body with a Content-Length.</source>
        <translation>Sende den Inhalt der Anfrage mit einer Content-Length.</translation>
    </message>
    <message>
        <source>class journal %1: %2</source>
        <translation>Klassen-Journal %1: %2</translation>
    </message>
    <message>
        <source>it is already there; a journal is never written over (--resume goes on with it)</source>
        <translation>es gibt es schon; ein Journal wird nie überschrieben (--resume setzt es fort)</translation>
    </message>
    <message>
        <source>line %1 is not a record of a class quiz</source>
        <translation>Zeile %1 ist kein Eintrag eines Klassenquiz</translation>
    </message>
    <message>
        <source>it does not begin with the start of a class quiz</source>
        <translation>es beginnt nicht mit dem Start eines Klassenquiz</translation>
    </message>
    <message>
        <source>The teacher&apos;s computer could not save this; try again in a moment.</source>
        <translation>Der Rechner der Lehrkraft konnte das nicht speichern; versuche es gleich noch einmal.</translation>
    </message>
    <message>
        <source>it is a journal of another quiz (bank %1)</source>
        <translation>es ist das Journal eines anderen Quiz (Bank %1)</translation>
    </message>
    <message>
        <source>a join is not the next student&apos;s</source>
        <translation>ein Beitritt ist nicht der des nächsten Schülers</translation>
    </message>
    <message>
        <source>an answer is from no student in it</source>
        <translation>eine Antwort stammt von keinem Schüler darin</translation>
    </message>
    <message>
        <source>a record of an unknown kind &quot;%1&quot;</source>
        <translation>ein Eintrag unbekannter Art „%1“</translation>
    </message>
    <message>
        <source>a new join code is not one</source>
        <translation>ein neuer Beitrittscode ist keiner</translation>
    </message>
    <message>
        <source>Too many wrong join codes were tried in this class, so the code has changed. Wait a minute, then type the code on the projector.</source>
        <translation>In dieser Klasse wurden zu viele falsche Beitrittscodes versucht, deshalb hat sich der Code geändert. Warte eine Minute und tippe dann den Code vom Projektor ein.</translation>
    </message>
    <message>
        <source>The teacher removed this name from the quiz.</source>
        <translation>Die Lehrkraft hat diesen Namen aus dem Quiz entfernt.</translation>
    </message>
    <message>
        <source>A name cannot hold invisible characters; type it with letters, digits and spaces.</source>
        <translation>Ein Name darf keine unsichtbaren Zeichen enthalten; tippe ihn mit Buchstaben, Ziffern und Leerzeichen.</translation>
    </message>
    <message>
        <source>its start holds no join code, teacher&apos;s token and secret</source>
        <translation>sein Start enthält keinen Beitrittscode, kein Token der Lehrkraft und kein Geheimnis</translation>
    </message>
    <message>
        <source>This server answers only at the class&apos;s addresses.</source>
        <translation>Dieser Server antwortet nur unter den Adressen der Klasse.</translation>
    </message>
    <message>
        <source>Send the request&apos;s body as JSON, with Content-Type: application/json.</source>
        <translation>Sende den Inhalt der Anfrage als JSON, mit Content-Type: application/json.</translation>
    </message>
    <message>
        <source>Too many requests with a token that is not in this class came from this computer; wait a minute.</source>
        <translation>Von diesem Computer kamen zu viele Anfragen mit einem Token, das nicht zu dieser Klasse gehört; warte eine Minute.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be true or false.</source>
        <translation>„%1“ muss true oder false sein.</translation>
    </message>
    <message>
        <source>&quot;students&quot; must be a list of ids.</source>
        <translation>„students“ muss eine Liste von IDs sein.</translation>
    </message>
    <message>
        <source>&quot;students&quot; must name from one student to the whole class.</source>
        <translation>„students“ muss einen Schüler bis zur ganzen Klasse nennen.</translation>
    </message>
    <message>
        <source>This question is revealed: go to the next one instead.</source>
        <translation>Diese Frage ist aufgelöst: gehe stattdessen zur nächsten.</translation>
    </message>
    <message>
        <source>No question to skip.</source>
        <translation>Keine Frage zum Überspringen.</translation>
    </message>
    <message>
        <source>There is no question before this one.</source>
        <translation>Vor dieser Frage gibt es keine.</translation>
    </message>
    <message>
        <source>A question&apos;s timer is from 0 (none) to %1 seconds.</source>
        <translation>Die Zeit einer Frage liegt zwischen 0 (keine) und %1 Sekunden.</translation>
    </message>
    <message>
        <source>right</source>
        <translation>richtig</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>falsch</translation>
    </message>
    <message>
        <source>%1: %2 of %3 questions right.</source>
        <translation>%1: %2 von %3 Fragen richtig.</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Deine Antwort</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>Die Antwort</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>The engine&apos;s working</source>
        <translation>Die Rechnung der Engine</translation>
    </message>
    <message>
        <source>The teacher&apos;s computer could not save this; tell the teacher.</source>
        <translation>Der Computer der Lehrkraft konnte das nicht speichern; sag der Lehrkraft Bescheid.</translation>
    </message>
    <message>
        <source>That name is not allowed in this class; choose another.</source>
        <translation>Dieser Name ist in dieser Klasse nicht erlaubt; wähle einen anderen.</translation>
    </message>
    <message>
        <source>the journal asks question &apos;%1&apos;, which bank &apos;%2&apos; does not have</source>
        <translation>das Journal fragt die Frage „%1“, die Bank „%2“ aber nicht hat</translation>
    </message>
    <message>
        <source>the journal names no questions</source>
        <translation>das Journal nennt keine Fragen</translation>
    </message>
    <message>
        <source>class journal %1, record %2: %3</source>
        <translation>Klassenjournal %1, Eintrag %2: %3</translation>
    </message>
</context>
<context>
    <name>LockstepCli</name>
    <message>
        <source>--questions: bank &apos;%1&apos; has no question &apos;%2&apos; (it has %3)</source>
        <translation>--questions: die Fragenbank &apos;%1&apos; hat keine Frage &apos;%2&apos; (sie enthält %3)</translation>
    </message>
    <message>
        <source>--questions: &apos;%1&apos; is named twice</source>
        <translation>--questions: &apos;%1&apos; ist doppelt genannt</translation>
    </message>
    <message>
        <source>--questions: name at least one question</source>
        <translation>--questions: nenne mindestens eine Frage</translation>
    </message>
    <message>
        <source>--results: %1 already exists; choose a new file, so that the results in it are kept</source>
        <translation>--results: %1 gibt es schon; wähle eine neue Datei, damit die Ergebnisse darin erhalten bleiben</translation>
    </message>
    <message>
        <source>cannot write the results to %1: %2</source>
        <translation>die Ergebnisse lassen sich nicht nach %1 schreiben: %2</translation>
    </message>
    <message>
        <source>expected: %1</source>
        <translation>erwartet: %1</translation>
    </message>
    <message>
        <source>class serve: cannot set up the signal handler</source>
        <translation>class serve: der Signal-Handler lässt sich nicht einrichten</translation>
    </message>
    <message>
        <source>class quiz: %1, %2 questions
</source>
        <translation>Klassenquiz: %1, %2 Fragen
</translation>
    </message>
    <message>
        <source>students: %1
</source>
        <translation>Schüler: %1
</translation>
    </message>
    <message>
        <source>also: %1
</source>
        <translation>auch: %1
</translation>
    </message>
    <message>
        <source>join code: %1
</source>
        <translation>Beitrittscode: %1
</translation>
    </message>
    <message>
        <source>teacher: %1
</source>
        <translation>Lehrer: %1
</translation>
    </message>
    <message>
        <source>results: %1
</source>
        <translation>Ergebnisse: %1
</translation>
    </message>
    <message>
        <source>port %1; Ctrl+C ends the quiz
</source>
        <translation>Port %1; Ctrl+C beendet das Quiz
</translation>
    </message>
    <message>
        <source>results: %1 answers of %2 students written to %3
</source>
        <translation>Ergebnisse: %1 Antworten von %2 Schülern in %3 geschrieben
</translation>
    </message>
    <message>
        <source>class: expected serve</source>
        <translation>class: serve erwartet</translation>
    </message>
    <message>
        <source>class: unknown subcommand &apos;%1&apos; (serve)</source>
        <translation>class: unbekannter Unterbefehl &apos;%1&apos; (serve)</translation>
    </message>
    <message>
        <source>compare --sync takes one scenario file (or none: the built-in one)</source>
        <translation>compare --sync nimmt eine Szenariodatei (oder keine: dann das eingebaute Szenario)</translation>
    </message>
    <message>
        <source>--sync: each must be one of bsp, ssp, async, local, got &apos;%1&apos;</source>
        <translation>--sync: jeder Eintrag muss bsp, ssp, async oder local sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--sync: &apos;%1&apos; is named twice</source>
        <translation>--sync: &apos;%1&apos; ist doppelt genannt</translation>
    </message>
    <message>
        <source>--sync: name two to four modes to compare, e.g. bsp,ssp,async,local</source>
        <translation>--sync: nenne zwei bis vier Modi zum Vergleichen, z. B. bsp,ssp,async,local</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <source>time to target loss</source>
        <translation>Zeit bis Zielverlust</translation>
    </message>
    <message>
        <source>energy to target loss</source>
        <translation>Energie bis Zielverlust</translation>
    </message>
    <message>
        <source>total time</source>
        <translation>Gesamtzeit</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>Endverlust</translation>
    </message>
    <message>
        <source>waiting per worker</source>
        <translation>Warten pro Worker</translation>
    </message>
    <message>
        <source>bytes moved</source>
        <translation>bewegte Bytes</translation>
    </message>
    <message>
        <source>energy (modelled)</source>
        <translation>Energie (Modell)</translation>
    </message>
    <message>
        <source>staleness (max, mean)</source>
        <translation>Veraltung (max., Mittel)</translation>
    </message>
    <message>
        <source>replicas agree at the end</source>
        <translation>Repliken am Ende einig</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Ways of agreeing on %1 (&quot;%2&quot;), %3 workers, target loss %4
(ssp with staleness %5, local SGD averaging every %6 steps)

</source>
        <translation>Arten der Abstimmung für %1 („%2“), %3 Worker, Zielverlust %4
(ssp mit Veraltung %5, lokales SGD mittelt alle %6 Schritte)

</translation>
    </message>
    <message>
        <source>(built-in)</source>
        <translation>(eingebaut)</translation>
    </message>
    <message>
        <source>  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.
</source>
        <translation>  Energie: angenommene Leistung je Zustand (siehe docs/SCENARIO.md), nicht gemessen.
</translation>
    </message>
    <message>
        <source>%1: goes with --sync (compare SCENARIO --sync bsp,ssp,async,local)</source>
        <translation>%1: gehört zu --sync (compare SCENARIO --sync bsp,ssp,async,local)</translation>
    </message>
    <message>
        <source>compare needs exactly two scenario files, e.g. compare a.json b.json</source>
        <translation>compare braucht genau zwei Szenariodateien, z. B. compare a.json b.json</translation>
    </message>
    <message>
        <source>compare: both runs must train (no steps were run)</source>
        <translation>compare: beide Läufe müssen trainieren (es wurden keine Schritte ausgeführt)</translation>
    </message>
    <message>
        <source>%1 s (step %2)</source>
        <translation>%1 s (Schritt %2)</translation>
    </message>
    <message>
        <source>workers (at the end)</source>
        <translation>Worker (am Ende)</translation>
    </message>
    <message>
        <source>useful samples</source>
        <translation>nützliche Beispiele</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>goodput</source>
        <translation>Goodput</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 Beispiele/s</translation>
    </message>
    <message>
        <source>synchronisation</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <source>%1 s per worker</source>
        <translation>%1 s pro Worker</translation>
    </message>
    <message>
        <source>waiting</source>
        <comment>time spent</comment>
        <translation>Warten</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>Checkpoints schreiben</translation>
    </message>
    <message>
        <source>failures</source>
        <translation>Ausfälle</translation>
    </message>
    <message>
        <source>lost work</source>
        <translation>verlorene Arbeit</translation>
    </message>
    <message>
        <source>%1 steps, %2 worker-s</source>
        <translation>%1 Schritte, %2 Worker-s</translation>
    </message>
    <message>
        <source>dropped gradients</source>
        <translation>verworfene Gradienten</translation>
    </message>
    <message>
        <source>energy per useful sample</source>
        <translation>Energie je nützl. Beispiel</translation>
    </message>
    <message>
        <source>Comparing A: %1 (&quot;%2&quot;)
      and B: %3 (&quot;%4&quot;), target loss %5

</source>
        <translation>Vergleich von A: %1 („%2“)
          und B: %3 („%4“), Zielverlust %5

</translation>
    </message>
    <message>
        <source>
  To reach loss %1, B takes %2x the time and %3x the energy of A.
</source>
        <translation>
  Um den Verlust %1 zu erreichen, braucht B das %2-Fache der Zeit und das %3-Fache der Energie von A.
</translation>
    </message>
    <message>
        <source>
language (a flag of every command, before or after the command):
  --language de|es|en             messages, help, lessons and quizzes in German, Spanish or
                                  English; by default the language that LANGUAGE, LC_ALL,
                                  LC_MESSAGES or LANG name, else English
</source>
        <translation>
Sprache (ein Flag jedes Befehls, vor oder nach dem Befehl):
  --language de|es|en             Meldungen, Hilfe, Lektionen und Quizfragen auf Deutsch,
                                  Spanisch oder Englisch; standardmäßig die Sprache, die
                                  LANGUAGE, LC_ALL, LC_MESSAGES oder LANG nennen, sonst Englisch
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli run [SCENARIO.json] [flags]

Trains the scenario&apos;s model (the built-in one without a file) with its workers and
reports the time on the run&apos;s clock, the speedup over one worker, the time spent
communicating and waiting, and the final loss and accuracy. Flags override the
scenario. Under mpirun with --transport mpi, each process is one worker.
</source>
        <translation>Aufruf: lockstep-cli run [SCENARIO.json] [flags]

Trainiert das Modell des Szenarios (ohne Datei das eingebaute) mit dessen Workern und
meldet die Zeit auf der Uhr des Laufs, den Speedup gegenüber einem Worker, die Zeit für
Kommunikation und Warten sowie Endverlust und Genauigkeit. Flags überschreiben das
Szenario. Unter mpirun mit --transport mpi ist jeder Prozess ein Worker.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli sweep [SCENARIO.json] --workers 1,2,4,8 [flags] [--json]

Runs the same scenario once per worker count and prints each count&apos;s time, speedup
and efficiency: the speedup curve of the Speedup view.

flags: --workers LIST  --steps N  --seed N  --clock modelled|measured
       --rule R  --algorithm A  --layers L  --activation F  --optimizer O  --lr X
       --momentum X  --batch N  --dataset D  --shuffle on|off  --init-params FILE
       --json
</source>
        <translation>Aufruf: lockstep-cli sweep [SCENARIO.json] --workers 1,2,4,8 [flags] [--json]

Führt dasselbe Szenario einmal pro Worker-Anzahl aus und gibt für jede Anzahl Zeit,
Speedup und Effizienz aus: die Speedup-Kurve der Ansicht Speedup.

Flags: --workers LIST  --steps N  --seed N  --clock modelled|measured
       --rule R  --algorithm A  --layers L  --activation F  --optimizer O  --lr X
       --momentum X  --batch N  --dataset D  --shuffle on|off  --init-params FILE
       --json
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]

Combines the values the way the engine combines the workers&apos; gradients and prints
the result. weighted-mean needs --weights: the samples behind each value.
</source>
        <translation>Aufruf: lockstep-cli reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]

Kombiniert die Werte so, wie die Engine die Gradienten der Worker kombiniert, und gibt
das Ergebnis aus. weighted-mean braucht --weights: die Beispiele hinter jedem Wert.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli checkpoints DIR [--json]

Lists each checkpoint in DIR: complete, partial or corrupt, and why.
</source>
        <translation>Aufruf: lockstep-cli checkpoints DIR [--json]

Listet jeden Checkpoint in DIR auf: vollständig, unvollständig oder beschädigt, und warum.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli moves [SCENARIO.json] [--parallelism data|pipeline|tensor|hybrid]
                          [--stages P] [--microbatches M] [--schedule S]
                          [--replicas D] [--workers N] [--batch N] [--layers L]
                          [--steps N] [--algorithm A] [--json]

Prints the bytes each kind of parallelism moves per step, per link, and the time
workers wait, for the same model.
</source>
        <translation>Aufruf: lockstep-cli moves [SCENARIO.json] [--parallelism data|pipeline|tensor|hybrid]
                           [--stages P] [--microbatches M] [--schedule S]
                           [--replicas D] [--workers N] [--batch N] [--layers L]
                           [--steps N] [--algorithm A] [--json]

Gibt für dasselbe Modell aus, wie viele Bytes jede Art von Parallelität pro Schritt und
pro Verbindung bewegt und wie lange die Worker warten.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli validate FILE

Checks a scenario file, its dataset and its initial parameters. Exits 0 and prints
&apos;valid&apos;, or prints what is wrong, naming the field and the allowed values.
</source>
        <translation>Aufruf: lockstep-cli validate FILE

Prüft eine Szenariodatei, ihren Datensatz und ihre Anfangsparameter. Endet mit 0 und gibt
&apos;gültig&apos; aus, oder nennt, was falsch ist, mit dem Namen des Felds und den erlaubten Werten.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli bench allreduce [--algorithm ring|tree|parameter-server]
                                    [--workers N] [--bytes N] [--iterations N] [--json]
       mpirun -np N lockstep-cli bench allreduce --transport mpi [--algorithm A]
                                    [--bytes N] [--iterations N] [--json]

Times all-reduces of real buffers between threads (or processes) and prints the
algorithm and bus bandwidth beside this machine&apos;s memory copy bandwidth.
</source>
        <translation>Aufruf: lockstep-cli bench allreduce [--algorithm ring|tree|parameter-server]
                                     [--workers N] [--bytes N] [--iterations N] [--json]
        mpirun -np N lockstep-cli bench allreduce --transport mpi [--algorithm A]
                                     [--bytes N] [--iterations N] [--json]

Misst die Dauer von All-Reduces echter Puffer zwischen Threads (oder Prozessen) und gibt
die Algorithmus- und Busbandbreite neben der Speicherkopier-Bandbreite dieses Rechners aus.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli bench train [--layers 2,64,64,2] [--batch 32] [--steps 2000]
                                [--workers 1] [--threads N] [--json]

Times real training steps and prints the samples per second.
</source>
        <translation>Aufruf: lockstep-cli bench train [--layers 2,64,64,2] [--batch 32] [--steps 2000]
                                 [--workers 1] [--threads N] [--json]

Misst die Dauer echter Trainingsschritte und gibt die Beispiele pro Sekunde aus.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli %1 SUBCOMMAND [ARGS]
</source>
        <translation>Aufruf: lockstep-cli %1 SUBCOMMAND [ARGS]
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli class serve BANK [flags]
</source>
        <translation>Aufruf: lockstep-cli class serve BANK [flags]
</translation>
    </message>
    <message>
        <source>
lessons and quizzes (resources from --root DIR, $LOCKSTEP_RESOURCES or the installed ones; your
own lessons beside them from --own-lessons DIR, else ~/.local/share/Lockstep/lessons):
  lessons check [--root DIR]      every lesson, scenario, link and quiz bank; exit 1 with reasons
  lessons list [--root DIR]       the lessons in order, with what they cover
  lessons calculator --one-worker-s 40 --workers 4 --communication-s 6
                                  the worked example: total time and speedup from the engine
  lessons study LESSON            the discussion lesson&apos;s model sizes: loss, compute, energy
  quiz export BANK --format moodle-xml|gift|csv [--students FILE] [--variants N] [--out FILE]
  quiz worksheet BANK [--students FILE | --variants N] --out SHEET.pdf [--key KEY.pdf]
                                  a printed page per student with their own numbers, and a key
  quiz ask BANK QUESTION --student NAME        one student&apos;s version of a question
  quiz check BANK QUESTION --student NAME --answer TEXT
                                  the verdict and feedback for a typed answer
</source>
        <translation>
Lektionen und Quizfragen (Ressourcen aus --root DIR, $LOCKSTEP_RESOURCES oder den installierten;
deine eigenen Lektionen daneben aus --own-lessons DIR, sonst ~/.local/share/Lockstep/lessons):
  lessons check [--root DIR]      prüft Lektionen, Szenarien, Links, Fragenbänke; Exit 1 mit Gründen
  lessons list [--root DIR]       die Lektionen der Reihe nach, mit ihren Themen
  lessons calculator --one-worker-s 40 --workers 4 --communication-s 6
                                  das Rechenbeispiel: Gesamtzeit und Speedup aus der Engine
  lessons study LESSON            Modellgrößen der Diskussionslektion: Verlust, Rechenzeit, Energie
  quiz export BANK --format moodle-xml|gift|csv [--students FILE] [--variants N] [--out FILE]
  quiz worksheet BANK [--students FILE | --variants N] --out SHEET.pdf [--key KEY.pdf]
                                  pro Schüler eine Seite mit eigenen Zahlen, dazu ein Lösungsblatt
  quiz ask BANK QUESTION --student NAME        die Version einer Frage für einen Schüler
  quiz check BANK QUESTION --student NAME --answer TEXT
                                  Bewertung und Rückmeldung zu einer eingegebenen Antwort
</translation>
    </message>
    <message>
        <source>left out: %1</source>
        <translation>ausgelassen: %1</translation>
    </message>
    <message numerus="yes">
        <source>lessons check: %n problem(s) in %1</source>
        <translation>
            <numerusform>lessons check: %n Problem in %1</numerusform>
            <numerusform>lessons check: %n Probleme in %1</numerusform>
        </translation>
    </message>
    <message>
        <source>ok: %1 lessons, %2 quiz banks, %3 questions in %4
</source>
        <translation>ok: %1 Lektionen, %2 Fragenbänke, %3 Fragen in %4
</translation>
    </message>
    <message numerus="yes">
        <source>ok: %n of your own lesson(s) in %1
</source>
        <translation>
            <numerusform>ok: %n eigene Lektion in %1
</numerusform>
            <numerusform>ok: %n eigene Lektionen in %1
</numerusform>
        </translation>
    </message>
    <message>
        <source>your own lessons, from %1:
</source>
        <translation>deine eigenen Lektionen, aus %1:
</translation>
    </message>
    <message numerus="yes">
        <source>%1. %2 (%3); %n exercise(s)
   %4
   syllabus: %5
</source>
        <translation>
            <numerusform>%1. %2 (%3); %n Übung
   %4
   Lehrplan: %5
</numerusform>
            <numerusform>%1. %2 (%3); %n Übungen
   %4
   Lehrplan: %5
</numerusform>
        </translation>
    </message>
    <message>
        <source>one worker: %1 s; %2 workers: %3 s of compute each + %4 s of communication = %5 s
speedup %6 (ideal %2), efficiency %7
</source>
        <translation>ein Worker: %1 s; %2 Worker: je %3 s Rechnen + %4 s Kommunikation = %5 s
Speedup %6 (ideal %2), Effizienz %7
</translation>
    </message>
    <message>
        <source>workers  speedup
</source>
        <translation>Worker   Speedup
</translation>
    </message>
    <message>
        <source>lessons study: no lesson &apos;%1&apos;</source>
        <translation>lessons study: keine Lektion &apos;%1&apos;</translation>
    </message>
    <message>
        <source>lessons study: lesson &apos;%1&apos; has no study</source>
        <translation>lessons study: die Lektion &apos;%1&apos; hat keine Studie</translation>
    </message>
    <message>
        <source>quiz export: --format is required (moodle-xml, gift or csv)</source>
        <translation>quiz export: --format ist erforderlich (moodle-xml, gift oder csv)</translation>
    </message>
    <message>
        <source>--format: must be one of moodle-xml, gift, csv, got &apos;%1&apos;</source>
        <translation>--format: muss moodle-xml, gift oder csv sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: cannot write the export</source>
        <translation>%1: der Export lässt sich nicht schreiben</translation>
    </message>
    <message>
        <source>quiz worksheet: --out SHEET.pdf is required</source>
        <translation>quiz worksheet: --out SHEET.pdf ist erforderlich</translation>
    </message>
    <message>
        <source>quiz worksheet: give --students or --variants, not both</source>
        <translation>quiz worksheet: gib --students oder --variants an, nicht beides</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n page(s), one per variant
</source>
        <translation>
            <numerusform>%1: %n Seite, eine pro Variante
</numerusform>
            <numerusform>%1: %n Seiten, eine pro Variante
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n page(s), one per student
</source>
        <translation>
            <numerusform>%1: %n Seite, eine pro Schüler
</numerusform>
            <numerusform>%1: %n Seiten, eine pro Schüler
</numerusform>
        </translation>
    </message>
    <message>
        <source>bank &apos;%1&apos; has no question &apos;%2&apos; (known: %3)</source>
        <translation>die Fragenbank &apos;%1&apos; hat keine Frage &apos;%2&apos; (bekannt: %3)</translation>
    </message>
    <message>
        <source>--student NAME is required: each student gets their own numbers</source>
        <translation>--student NAME ist erforderlich: jeder Schüler bekommt seine eigenen Zahlen</translation>
    </message>
    <message>
        <source>answer: %1
</source>
        <translation>Antwort: %1
</translation>
    </message>
    <message>
        <source>correct</source>
        <comment>verdict</comment>
        <translation>richtig</translation>
    </message>
    <message>
        <source>near</source>
        <comment>verdict</comment>
        <translation>fast richtig</translation>
    </message>
    <message>
        <source>wrong</source>
        <comment>verdict</comment>
        <translation>falsch</translation>
    </message>
    <message>
        <source>unparseable</source>
        <comment>verdict</comment>
        <translation>nicht auswertbar</translation>
    </message>
    <message>
        <source>--answer TEXT is required</source>
        <translation>--answer TEXT ist erforderlich</translation>
    </message>
    <message>
        <source>lessons: expected check, list, calculator or study</source>
        <translation>lessons: check, list, calculator oder study erwartet</translation>
    </message>
    <message>
        <source>lessons: unknown subcommand &apos;%1&apos; (check, list, calculator or study)</source>
        <translation>lessons: unbekannter Unterbefehl &apos;%1&apos; (check, list, calculator oder study)</translation>
    </message>
    <message>
        <source>quiz: expected export, worksheet, ask or check</source>
        <translation>quiz: export, worksheet, ask oder check erwartet</translation>
    </message>
    <message>
        <source>quiz: unknown subcommand &apos;%1&apos; (export, worksheet, ask or check)</source>
        <translation>quiz: unbekannter Unterbefehl &apos;%1&apos; (export, worksheet, ask oder check)</translation>
    </message>
    <message>
        <source>%1: must be one of %2, got &apos;%3&apos;</source>
        <translation>%1: muss eines von %2 sein, erhalten: &apos;%3&apos;</translation>
    </message>
    <message>
        <source>expected at most one scenario file, got &apos;%1&apos; as well</source>
        <translation>höchstens eine Szenariodatei erwartet, aber auch &apos;%1&apos; erhalten</translation>
    </message>
    <message>
        <source>--dataset: must be one of %1, or a file ending in .csv, got &apos;%2&apos;</source>
        <translation>--dataset: muss eines von %1 sein oder eine Datei, die auf .csv endet, erhalten: &apos;%2&apos;</translation>
    </message>
    <message>
        <source>--shuffle: must be on or off, got &apos;%1&apos;</source>
        <translation>--shuffle: muss on oder off sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: goes with --sync %2</source>
        <translation>%1: gehört zu --sync %2</translation>
    </message>
    <message>
        <source>%1: needs a checkpoint policy (--checkpoint-every K)</source>
        <translation>%1: braucht eine Checkpoint-Regel (--checkpoint-every K)</translation>
    </message>
    <message>
        <source>%1: no %2 (not a directory written by lockstep-cli run --checkpoint-dir)</source>
        <translation>%1: %2 fehlt (kein Verzeichnis, das lockstep-cli run --checkpoint-dir geschrieben hat)</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: %2 workers, %3 steps, %4 all-reduce, %5 of gradients, %6 clock
</source>
        <translation>Lockstep-Lauf „%1“: %2 Worker, %3 Schritte, All-Reduce %4, Regel %5 für die Gradienten, Uhr %6
</translation>
    </message>
    <message>
        <source>Open MPI&apos;s MPI_Allreduce</source>
        <translation>MPI_Allreduce von Open MPI</translation>
    </message>
    <message>
        <source>processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>%1 over Open MPI, on %2 host (%3); times measured</source>
        <translation>%1 über Open MPI, auf %2 Rechner (%3); Zeiten gemessen</translation>
    </message>
    <message>
        <source>%1 over Open MPI, on %2 hosts (%3); times measured</source>
        <translation>%1 über Open MPI, auf %2 Rechnern (%3); Zeiten gemessen</translation>
    </message>
    <message>
        <source>resumed from</source>
        <translation>fortgesetzt ab</translation>
    </message>
    <message>
        <source>step %1 (%2 restore)</source>
        <translation>Schritt %1 (Wiederherstellung: %2)</translation>
    </message>
    <message>
        <source>%1 s  (one worker, same work: %2 s)</source>
        <translation>%1 s  (ein Worker, gleiche Arbeit: %2 s)</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>Speedup</translation>
    </message>
    <message>
        <source>%1   efficiency %2 %</source>
        <translation>%1   Effizienz %2 %</translation>
    </message>
    <message>
        <source>per worker</source>
        <translation>pro Worker</translation>
    </message>
    <message>
        <source>compute %1 s, communication %2 s, waiting %3 s</source>
        <translation>Rechnen %1 s, Kommunikation %2 s, Warten %3 s</translation>
    </message>
    <message>
        <source>checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>%1 committed, %2 bytes, %3 s per worker</source>
        <translation>%1 festgeschrieben, %2 Bytes, %3 s pro Worker</translation>
    </message>
    <message>
        <source>not known (inside Open MPI&apos;s MPI_Allreduce)</source>
        <translation>unbekannt (innerhalb von MPI_Allreduce von Open MPI)</translation>
    </message>
    <message>
        <source>%1   accuracy %2 %</source>
        <translation>%1   Genauigkeit %2 %</translation>
    </message>
    <message>
        <source>loss by step</source>
        <translation>Verlustverlauf</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>Repliken gleich</translation>
    </message>
    <message>
        <source>not checked (times only: no parameters were trained)</source>
        <translation>nicht geprüft (nur Zeiten: es wurden keine Parameter trainiert)</translation>
    </message>
    <message>
        <source>yes (every replica&apos;s parameters hash the same)</source>
        <translation>ja (die Parameter aller Repliken haben denselben Hash)</translation>
    </message>
    <message>
        <source>NO: the replicas have drifted apart</source>
        <translation>NEIN: die Repliken sind auseinandergelaufen</translation>
    </message>
    <message>
        <source>checkpoints (%1)</source>
        <translation>Checkpoints (%1)</translation>
    </message>
    <message>
        <source>%1: holds another run&apos;s %2; give this run an empty directory, or continue that run with lockstep-cli resume %1</source>
        <translation>%1: enthält %2 eines anderen Laufs; gib diesem Lauf ein leeres Verzeichnis oder setze jenen Lauf mit lockstep-cli resume %1 fort</translation>
    </message>
    <message>
        <source>--checkpoint-dir: needs a checkpoint policy (--checkpoint-every K, or checkpoint.every in the scenario)</source>
        <translation>--checkpoint-dir: braucht eine Checkpoint-Regel (--checkpoint-every K oder checkpoint.every im Szenario)</translation>
    </message>
    <message>
        <source>%1: cannot create the checkpoint directory</source>
        <translation>%1: das Checkpoint-Verzeichnis lässt sich nicht anlegen</translation>
    </message>
    <message>
        <source>--checkpoint-every: needs --checkpoint-dir DIR</source>
        <translation>--checkpoint-every: braucht --checkpoint-dir DIR</translation>
    </message>
    <message>
        <source>checkpoint: a run over processes checkpoints into a directory every computer reaches; name it with --checkpoint-dir DIR</source>
        <translation>checkpoint: ein Lauf über Prozesse schreibt seine Checkpoints in ein Verzeichnis, das jeder Rechner erreicht; gib es mit --checkpoint-dir DIR an</translation>
    </message>
    <message>
        <source>note: skipped %1</source>
        <translation>Hinweis: %1 übersprungen</translation>
    </message>
    <message>
        <source>note: no complete checkpoint in %1: starting from step 0</source>
        <translation>Hinweis: kein vollständiger Checkpoint in %1: Start bei Schritt 0</translation>
    </message>
    <message>
        <source>--algorithm: mpi-allreduce is Open MPI&apos;s own all-reduce, so it needs --transport mpi (under mpirun)</source>
        <translation>--algorithm: mpi-allreduce ist das eigene All-Reduce von Open MPI und braucht daher --transport mpi (unter mpirun)</translation>
    </message>
    <message>
        <source>(checkpoints go to a scratch directory, removed at the end; --checkpoint-dir DIR keeps them)
</source>
        <translation>(die Checkpoints kommen in ein temporäres Verzeichnis, das am Ende gelöscht wird; mit --checkpoint-dir DIR bleiben sie erhalten)
</translation>
    </message>
    <message>
        <source>resume needs exactly one checkpoint directory</source>
        <translation>resume braucht genau ein Checkpoint-Verzeichnis</translation>
    </message>
    <message>
        <source>%1: not a directory</source>
        <translation>%1: kein Verzeichnis</translation>
    </message>
    <message>
        <source>note: removed the leftover temporary file %1</source>
        <translation>Hinweis: die übrig gebliebene temporäre Datei %1 wurde gelöscht</translation>
    </message>
    <message>
        <source>note: skipped %1 (%2: %3)</source>
        <translation>Hinweis: %1 übersprungen (%2: %3)</translation>
    </message>
    <message>
        <source>checkpoints needs exactly one checkpoint directory</source>
        <translation>checkpoints braucht genau ein Checkpoint-Verzeichnis</translation>
    </message>
    <message>
        <source>no checkpoints in %1
</source>
        <translation>keine Checkpoints in %1
</translation>
    </message>
    <message>
        <source>%1  step %2  %3  %4
</source>
        <translation>%1  Schritt %2  %3  %4
</translation>
    </message>
    <message>
        <source>leftover temporary file: %1
</source>
        <translation>übrig gebliebene temporäre Datei: %1
</translation>
    </message>
    <message>
        <source>sweep needs --workers, e.g. --workers 1,2,4,8</source>
        <translation>sweep braucht --workers, z. B. --workers 1,2,4,8</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>Effizienz</translation>
    </message>
    <message>
        <source>reduce takes no file; unexpected &apos;%1&apos;</source>
        <translation>reduce nimmt keine Datei; unerwartet: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>reduce needs --values, e.g. --values 2,4</source>
        <translation>reduce braucht --values, z. B. --values 2,4</translation>
    </message>
    <message>
        <source>--rule weighted-mean needs --weights (the samples behind each value), e.g. --weights 30,10</source>
        <translation>--rule weighted-mean braucht --weights (die Beispiele hinter jedem Wert), z. B. --weights 30,10</translation>
    </message>
    <message>
        <source>--weights: needs one weight per value (%1), got %2</source>
        <translation>--weights: braucht ein Gewicht pro Wert (%1), erhalten: %2</translation>
    </message>
    <message>
        <source>validate needs exactly one scenario file</source>
        <translation>validate braucht genau eine Szenariodatei</translation>
    </message>
    <message>
        <source>%1: valid
</source>
        <translation>%1: gültig
</translation>
    </message>
    <message>
        <source>--workers: over Open MPI every process is one worker; start as many as you want with mpirun -np N</source>
        <translation>--workers: über Open MPI ist jeder Prozess ein Worker; starte mit mpirun -np N so viele, wie du willst</translation>
    </message>
    <message>
        <source>%1 all-reduce, %2 workers, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s, memcpy %7 GB/s
</source>
        <translation>%1-All-Reduce, %2 Worker, %3 Bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s, memcpy %7 GB/s
</translation>
    </message>
    <message>
        <source>training: %1 samples/s (%2 steps of %3 samples x %4 workers in %5 s)
</source>
        <translation>Training: %1 Beispiele/s (%2 Schritte mit %3 Beispielen x %4 Worker in %5 s)
</translation>
    </message>
    <message>
        <source>bench: unknown kind &apos;%1&apos; (allreduce or train)</source>
        <translation>bench: unbekannte Art &apos;%1&apos; (allreduce oder train)</translation>
    </message>
    <message>
        <source>needs a value (%1)</source>
        <translation>braucht einen Wert (%1)</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (try lockstep-cli --help)</source>
        <translation>unbekannter Befehl &apos;%1&apos; (versuche lockstep-cli --help)</translation>
    </message>
    <message>
        <source>%1 all-reduce over Open MPI, %2 ranks, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s
</source>
        <translation>%1-All-Reduce über Open MPI, %2 Ranks, %3 Bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s
</translation>
    </message>
    <message>
        <source>Open MPI&apos;s own MPI_Allreduce, same buffers:  %1 ms, algbw %2 GB/s, busbw %3 GB/s
</source>
        <translation>Eigenes MPI_Allreduce von Open MPI, dieselben Puffer:  %1 ms, algbw %2 GB/s, busbw %3 GB/s
</translation>
    </message>
    <message>
        <source>largest difference between the two sums: %1
</source>
        <translation>größter Unterschied zwischen den beiden Summen: %1
</translation>
    </message>
    <message>
        <source>--transport mpi: this lockstep-cli was built without Open MPI (install libopenmpi-dev and openmpi-bin, then configure and build again)</source>
        <translation>--transport mpi: dieses lockstep-cli wurde ohne Open MPI gebaut (installiere libopenmpi-dev und openmpi-bin, dann konfiguriere und baue es neu)</translation>
    </message>
    <message>
        <source>unknown option %1</source>
        <translation>unbekannte Option %1</translation>
    </message>
    <message>
        <source>%1 takes no value</source>
        <translation>%1 nimmt keinen Wert</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 braucht einen Wert</translation>
    </message>
    <message>
        <source>%1: expected a whole number between %2 and %3, got &apos;%4&apos;</source>
        <translation>%1: erwartet eine ganze Zahl zwischen %2 und %3, erhalten: &apos;%4&apos;</translation>
    </message>
    <message>
        <source>%1: expected a number between %2 and %3, got &apos;%4&apos;</source>
        <translation>%1: erwartet eine Zahl zwischen %2 und %3, erhalten: &apos;%4&apos;</translation>
    </message>
    <message>
        <source>%1: expected whole numbers between %2 and %3 separated by commas, got &apos;%4&apos; in &apos;%5&apos;</source>
        <translation>%1: erwartet ganze Zahlen zwischen %2 und %3, durch Kommas getrennt, erhalten: &apos;%4&apos; in &apos;%5&apos;</translation>
    </message>
    <message>
        <source>%1: too many values (at most %2)</source>
        <translation>%1: zu viele Werte (höchstens %2)</translation>
    </message>
    <message>
        <source>%1: expected numbers separated by commas, got &apos;%2&apos; in &apos;%3&apos;</source>
        <translation>%1: erwartet Zahlen, durch Kommas getrennt, erhalten: &apos;%2&apos; in &apos;%3&apos;</translation>
    </message>
    <message>
        <source>--trace-detail: goes with --trace FILE</source>
        <translation>--trace-detail: gehört zu --trace FILE</translation>
    </message>
    <message>
        <source>--trace-detail: must be rounds or phases, got &apos;%1&apos;</source>
        <translation>--trace-detail: muss rounds oder phases sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>layers %1-%2</source>
        <translation>Schichten %1-%2</translation>
    </message>
    <message>
        <source>--parallelism: must be one of data, pipeline, tensor, hybrid, got &apos;%1&apos;</source>
        <translation>--parallelism: muss data, pipeline, tensor oder hybrid sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: needs --parallelism pipeline, tensor or hybrid (or a &quot;parallelism&quot; object in the scenario)</source>
        <translation>%1: braucht --parallelism pipeline, tensor oder hybrid (oder ein &quot;parallelism&quot;-Objekt im Szenario)</translation>
    </message>
    <message>
        <source>--schedule: must be one of fill-drain, 1f1b, got &apos;%1&apos;</source>
        <translation>--schedule: muss fill-drain oder 1f1b sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--replicas: only a hybrid run has data-parallel replicas of its pipeline (--parallelism hybrid)</source>
        <translation>--replicas: nur ein hybrider Lauf hat datenparallele Repliken seiner Pipeline (--parallelism hybrid)</translation>
    </message>
    <message>
        <source>%1: checkpoints are written by data-parallel runs only for now</source>
        <translation>%1: vorerst schreiben nur datenparallele Läufe Checkpoints</translation>
    </message>
    <message>
        <source>%1 replica</source>
        <translation>%1 Replik</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 Repliken</translation>
    </message>
    <message>
        <source>%1 stage</source>
        <translation>%1 Stufe</translation>
    </message>
    <message>
        <source>%1 stages</source>
        <translation>%1 Stufen</translation>
    </message>
    <message>
        <source>%1 micro-batch</source>
        <translation>%1 Mikro-Batch</translation>
    </message>
    <message>
        <source>%1 micro-batches</source>
        <translation>%1 Mikro-Batches</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: %2, %3, %4, %5 clock
</source>
        <translation>Lockstep-Lauf „%1“: %2, %3, %4, Uhr %5
</translation>
    </message>
    <message>
        <source>%1 step</source>
        <translation>%1 Schritt</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 Schritte</translation>
    </message>
    <message>
        <source>stages</source>
        <translation>Stufen</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: tensor, every layer split across %2 workers, %3 steps, %4 clock
</source>
        <translation>Lockstep-Lauf „%1“: tensor, jede Schicht auf %2 Worker aufgeteilt, %3 Schritte, Uhr %4
</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>Blase</translation>
    </message>
    <message>
        <source>%1 % of stage time idle (equal stages, free messages: (P-1)/(M+P-1) = %2 %)</source>
        <translation>%1 % der Stufenzeit untätig (gleiche Stufen, kostenlose Nachrichten: (P-1)/(M+P-1) = %2 %)</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>unterwegs</translation>
    </message>
    <message>
        <source>at most %1 micro-batches&apos; activations held by one stage</source>
        <translation>eine Stufe hält höchstens die Aktivierungen von %1 Mikro-Batches</translation>
    </message>
    <message>
        <source>%1 (activations %2, activation gradients %3, gradients %4)</source>
        <translation>%1 (Aktivierungen %2, Aktivierungsgradienten %3, Gradienten %4)</translation>
    </message>
    <message>
        <source>%1 (layer outputs gathered, input gradients all-reduced)</source>
        <translation>%1 (Schichtausgaben gesammelt, Eingabegradienten per All-Reduce reduziert)</translation>
    </message>
    <message>
        <source>moves takes at most one scenario file, got &apos;%1&apos; as well</source>
        <translation>moves nimmt höchstens eine Szenariodatei, aber auch &apos;%1&apos; erhalten</translation>
    </message>
    <message>
        <source>--algorithm: must be one of parameter-server, ring, tree, got &apos;%1&apos;</source>
        <translation>--algorithm: muss parameter-server, ring oder tree sein, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>What moves in one training step of model %1, same batch for every strategy (modelled clock, per worker means):

</source>
        <translation>Was sich in einem Trainingsschritt des Modells %1 bewegt, gleicher Batch für jede Strategie (modellierte Uhr, Mittelwerte pro Worker):

</translation>
    </message>
    <message>
        <source>moves %1: %2 bytes per step
</source>
        <translation>bewegt %1: %2 Bytes pro Schritt
</translation>
    </message>
    <message>
        <source>step %1 s; per worker computing %2 s, waiting %3 s
</source>
        <translation>Schritt %1 s; pro Worker Rechnen %2 s, Warten %3 s
</translation>
    </message>
    <message>
        <source>
bytes per step on each link (from-&gt;to):
</source>
        <translation>
Bytes pro Schritt auf jeder Verbindung (von-&gt;nach):
</translation>
    </message>
    <message>
        <source>(nothing moves)</source>
        <translation>(nichts bewegt sich)</translation>
    </message>
    <message>
        <source>at most %1, mean %2 updates behind</source>
        <translation>höchstens %1, im Mittel %2 Updates im Rückstand</translation>
    </message>
    <message>
        <source>agreement</source>
        <translation>Abstimmung</translation>
    </message>
    <message numerus="yes">
        <source>ssp: a worker runs at most %n clock(s) ahead of the slowest</source>
        <translation>
            <numerusform>ssp: ein Worker läuft höchstens %n Takt vor dem langsamsten</numerusform>
            <numerusform>ssp: ein Worker läuft höchstens %n Takte vor dem langsamsten</numerusform>
        </translation>
    </message>
    <message>
        <source>staleness</source>
        <translation>Veraltung</translation>
    </message>
    <message>
        <source>async: every gradient applied as it arrives, at lr / staleness</source>
        <translation>async: jeder Gradient wirkt, sobald er ankommt, mit lr / Veraltung</translation>
    </message>
    <message>
        <source>async: every gradient applied as it arrives</source>
        <translation>async: jeder Gradient wirkt, sobald er ankommt</translation>
    </message>
    <message numerus="yes">
        <source>local SGD: %n step(s) on their own, then the replicas average their parameters</source>
        <translation>
            <numerusform>lokales SGD: %n Schritt für sich, dann mitteln die Repliken ihre Parameter</numerusform>
            <numerusform>lokales SGD: %n Schritte für sich, dann mitteln die Repliken ihre Parameter</numerusform>
        </translation>
    </message>
    <message>
        <source>against bsp</source>
        <translation>gegenüber bsp</translation>
    </message>
    <message>
        <source>waiting %1 s instead of %2 s per worker; total time %3 s instead of %4 s</source>
        <translation>Warten %1 s statt %2 s pro Worker; Gesamtzeit %3 s statt %4 s</translation>
    </message>
    <message>
        <source>worker %1 crashed writing the checkpoint of step %2 (%3) at %4 s, declared dead %5 s later</source>
        <translation>Worker %1 ist beim Schreiben des Checkpoints von Schritt %2 (%3) bei %4 s abgestürzt, %5 s später für tot erklärt</translation>
    </message>
    <message>
        <source>worker %1 crashed in step %2 (%3) at %4 s, declared dead %5 s later</source>
        <translation>Worker %1 ist in Schritt %2 (%3) bei %4 s abgestürzt, %5 s später für tot erklärt</translation>
    </message>
    <message>
        <source>the others went on without its gradient (backup workers)</source>
        <translation>die anderen machten ohne seinen Gradienten weiter (Backup-Worker)</translation>
    </message>
    <message>
        <source>no complete checkpoint yet, so everyone started over from step 0</source>
        <translation>noch kein vollständiger Checkpoint, daher begannen alle wieder bei Schritt 0</translation>
    </message>
    <message>
        <source>%1 from %2 (step %3)</source>
        <translation>%1 ab %2 (Schritt %3)</translation>
    </message>
    <message>
        <source>skipped %1 (%2: %3)</source>
        <translation>%1 übersprungen (%2: %3)</translation>
    </message>
    <message>
        <source>removed %1 leftover temporary file</source>
        <translation>%1 übrig gebliebene temporäre Datei gelöscht</translation>
    </message>
    <message>
        <source>removed %1 leftover temporary files</source>
        <translation>%1 übrig gebliebene temporäre Dateien gelöscht</translation>
    </message>
    <message>
        <source>%1 step to redo</source>
        <translation>%1 Schritt zu wiederholen</translation>
    </message>
    <message>
        <source>%1 steps to redo</source>
        <translation>%1 Schritte zu wiederholen</translation>
    </message>
    <message>
        <source>%1 workers go on</source>
        <translation>%1 Worker machen weiter</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>Ausfall</translation>
    </message>
    <message>
        <source>%1 steps redone, %2 worker-seconds thrown away; detection %3 s, recovery %4 s</source>
        <translation>%1 Schritte wiederholt, %2 Worker-Sekunden verloren; Erkennung %3 s, Wiederherstellung %4 s</translation>
    </message>
    <message>
        <source>%1 (late, left out by backup workers)</source>
        <translation>%1 (zu spät, von den Backup-Workern ausgelassen)</translation>
    </message>
    <message>
        <source>%1 useful samples/s of %2 processed/s</source>
        <translation>%1 nützliche Beispiele/s von %2 verarbeiteten/s</translation>
    </message>
    <message>
        <source>%1 J, %2 J per useful sample (power per state: assumed, see docs/SCENARIO.md)</source>
        <translation>%1 J, %2 J pro nützlichem Beispiel (Leistung je Zustand: angenommen, siehe docs/SCENARIO.md)</translation>
    </message>
    <message>
        <source>final training loss</source>
        <translation>letzter Trainingsverlust</translation>
    </message>
    <message>
        <source>held-out loss</source>
        <translation>Verlust auf neuen Daten</translation>
    </message>
    <message>
        <source>no fresh data</source>
        <translation>keine neuen Daten</translation>
    </message>
    <message>
        <source>%1 ± %2 (seeds: %3)</source>
        <translation>%1 ± %2 (Seeds: %3)</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>Genauigkeit auf neuen Daten</translation>
    </message>
    <message>
        <source>%1 ± %2 %</source>
        <translation>%1 ± %2 %</translation>
    </message>
    <message>
        <source>usage: lockstep-cli compare A.json B.json [--target-loss X] [--seeds N] [--json]
       lockstep-cli compare [SCENARIO.json] --sync bsp,ssp,async,local
                            [--staleness S] [--local-steps H] [--target-loss X] [--json]

Runs two scenarios and sets them side by side: time and energy to the same target
loss (default: the highest final loss), useful samples per second,
synchronisation, waiting and lost work, and the loss and accuracy on fresh examples
as mean ± sd over N seeds (default 3). With --sync, one scenario under each way of
agreeing (ssp with staleness 2 and local SGD every 4 steps unless given).
</source>
        <translation>Aufruf: lockstep-cli compare A.json B.json [--target-loss X] [--seeds N] [--json]
        lockstep-cli compare [SCENARIO.json] --sync bsp,ssp,async,local
                             [--staleness S] [--local-steps H] [--target-loss X] [--json]

Führt zwei Szenarien aus und stellt sie nebeneinander: Zeit und Energie bis zum selben
Zielverlust (Standard: der höhere Endverlust), nützliche Beispiele pro Sekunde,
Synchronisation, Warten und verlorene Arbeit sowie Verlust und Genauigkeit auf frischen
Beispielen als Mittelwert ± Standardabweichung über N Seeds (Standard 3). Mit --sync: ein Szenario mit jeder Art der
Abstimmung (ssp mit Veraltung 2 und lokales SGD alle 4 Schritte, falls nicht angegeben).
</translation>
    </message>
    <message>
        <source>model          parameters  train_loss  accuracy  compute_s  energy_kJ  held_out_loss (mean ± sd)
</source>
        <translation>Modell         Parameter   Train-Verl. Genauigk. Rechnen_s  Energie_kJ Verlust_neu (Mittel ± Sd)
</translation>
    </message>
    <message>
        <source>energy modelled per worker: computing %1 W, communicating %2 W, waiting %3 W, writing checkpoints %4 W, idle %5 W
</source>
        <translation>Energie modelliert pro Worker: Rechnen %1 W, Kommunizieren %2 W, Warten %3 W, Checkpoints schreiben %4 W, untätig %5 W
</translation>
    </message>
    <message>
        <source>train_loss and accuracy: the last step&apos;s batch, first seed; held_out_loss: fresh examples, mean ± sd over the seeds (%1)
</source>
        <translation>Train-Verl. und Genauigk.: Batch des letzten Schritts, erster Seed; Verlust_neu: frische Beispiele, Mittel ± Sd über die Seeds (%1)
</translation>
    </message>
    <message>
        <source>accumulation</source>
        <translation>Akkumulation</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es) added up before each reduction</source>
        <translation>
            <numerusform>%n Micro-Batch vor jeder Reduktion aufsummiert</numerusform>
            <numerusform>%n Micro-Batches vor jeder Reduktion aufsummiert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n bucket(s) of at most %1 bytes each, reduced in turn</source>
        <translation>
            <numerusform>%n Bucket mit höchstens %1 Bytes, der Reihe nach reduziert</numerusform>
            <numerusform>%n Buckets mit je höchstens %1 Bytes, der Reihe nach reduziert</numerusform>
        </translation>
    </message>
    <message>
        <source>one bucket: the whole gradient, once backward is over</source>
        <translation>ein Bucket: der ganze Gradient, sobald der Rückwärtsdurchlauf fertig ist</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>Buckets</translation>
    </message>
    <message>
        <source>%1 s of %2 s per worker hidden behind backward (%3 %); %4 s exposed</source>
        <translation>%1 s von %2 s pro Worker hinter dem Rückwärtsdurchlauf verborgen (%3 %); %4 s sichtbar</translation>
    </message>
    <message>
        <source>%1 s of %2 s per worker hidden (%3 %): without overlap every bucket waits for backward; %4 s exposed</source>
        <translation>%1 s von %2 s pro Worker verborgen (%3 %): ohne Überlappung wartet jeder Bucket auf den Rückwärtsdurchlauf; %4 s sichtbar</translation>
    </message>
    <message>
        <source>bucket order</source>
        <translation>Bucket-Reihenfolge</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) stopped: a worker reduced its buckets in another order, so a message named the wrong bucket; nothing was added or applied in those steps</source>
        <translation>
            <numerusform>%n Schritt angehalten: Ein Worker hat seine Buckets in anderer Reihenfolge reduziert, also nannte eine Nachricht den falschen Bucket; in diesem Schritt wurde nichts addiert und nichts angewendet</numerusform>
            <numerusform>%n Schritte angehalten: Ein Worker hat seine Buckets in anderer Reihenfolge reduziert, also nannte eine Nachricht den falschen Bucket; in diesen Schritten wurde nichts addiert und nichts angewendet</numerusform>
        </translation>
    </message>
    <message>
        <source>precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>%1: every pass and update on floats, 4 bytes a value</source>
        <translation>%1: jeder Durchlauf und jede Aktualisierung auf floats, 4 Bytes je Wert</translation>
    </message>
    <message>
        <source>loss scale</source>
        <translation>Verlustskalierung</translation>
    </message>
    <message>
        <source>started at %1, ended at %2: halved at each overflow, doubled after %3 steps without one</source>
        <translation>begann bei %1, endete bei %2: bei jedem Überlauf halbiert, nach %3 Schritten ohne einen verdoppelt</translation>
    </message>
    <message>
        <source>against float64</source>
        <translation>gegen float64</translation>
    </message>
    <message>
        <source>the summed gradient was at most %1 from the float64 reference, at step %2 (per step: run --json, precision_gap)</source>
        <translation>der summierte Gradient war höchstens %1 von der float64-Referenz entfernt, in Schritt %2 (je Schritt: run --json, precision_gap)</translation>
    </message>
    <message>
        <source>on the wire</source>
        <translation>auf der Leitung</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 bytes a value; %n step(s) skipped because the summed gradient overflowed</source>
        <translation>
            <numerusform>%1, %2 Bytes je Wert; %n Schritt übersprungen, weil der summierte Gradient übergelaufen ist</numerusform>
            <numerusform>%1, %2 Bytes je Wert; %n Schritte übersprungen, weil der summierte Gradient übergelaufen ist</numerusform>
        </translation>
    </message>
    <message>
        <source>communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>bucket KB</source>
        <translation>Bucket KB</translation>
    </message>
    <message>
        <source>step (s)</source>
        <translation>Schritt (s)</translation>
    </message>
    <message>
        <source>exposed/step</source>
        <translation>sichtbar/Schritt</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>verborgen</translation>
    </message>
    <message>
        <source>fastest step: buckets of %1 KB
</source>
        <translation>schnellster Schritt: Buckets von %1 KB
</translation>
    </message>
    <message>
        <source>--no-overlap: goes with --bucket-kb (the bucket sweep)</source>
        <translation>--no-overlap: gehört zu --bucket-kb (dem Durchlauf über Bucket-Größen)</translation>
    </message>
    <message>
        <source>sharding</source>
        <translation>Sharding</translation>
    </message>
    <message>
        <source>ZeRO stage 1: the gradients are reduce-scattered, each worker keeps and updates the optimizer state of its 1/%1 of the parameters only, then the parameters are all-gathered</source>
        <translation>ZeRO-Stufe 1: Die Gradienten werden per Reduce-Scatter verteilt, jeder Worker hält und aktualisiert den Optimiererzustand nur seines 1/%1 der Parameter, dann werden die Parameter per All-Gather eingesammelt</translation>
    </message>
    <message>
        <source>Bytes held by the worker that holds the most, after one step of &quot;%1&quot; (%2 workers, %3 parameters); in brackets, against the first column
</source>
        <translation>Bytes des Workers, der am meisten hält, nach einem Schritt von „%1“ (%2 Worker, %3 Parameter); in Klammern gegenüber der ersten Spalte
</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>workspace</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>worker %1 holds the most, %2 bytes: parameters %3, gradients %4, optimizer %5, activations %6, workspace %7</source>
        <translation>Worker %1 hält am meisten, %2 Bytes: Parameter %3, Gradienten %4, Optimierer %5, Aktivierungen %6, Arbeitsspeicher %7</translation>
    </message>
    <message>
        <source>
gradient flags (bulk-synchronous data parallelism; the scenario&apos;s &quot;gradients&quot; block):
  --bucket-kb B  gradients leave in buckets of at most B KB, the last layers first, each
         bucket&apos;s collective starting while backward goes on (0: one bucket, after backward)
  --no-overlap  the buckets wait until backward has ended
  --paced-links  on the measured clock, each round of the collective also lasts the cost
         model&apos;s price for real (its links&apos; speed), so overlap hides real time
  --accumulate K  K micro-batches of --batch samples added up before one reduction
  --fail bucket-order:worker=2,step=5  that worker reduces its buckets in another order in
         that step: the run sees it from the messages and stops the step
  sweep --bucket-kb 0,8,32,128  the same run for each bucket size: step time, the
         communication left exposed, and the fastest size
  --shard optimizer|gradients|parameters  sharded data parallelism, ZeRO stage 1, 2 or 3
         (the scenario&apos;s &quot;sharding&quot;): the gradients are reduce-scattered, each worker
         keeps and updates the optimizer state of its 1/N of the parameters only, then the
         parameters are all-gathered; stage 2 keeps only its 1/N of the gradient too;
         stage 3 (FSDP) keeps 1/N of every layer and gathers a layer when a pass needs it
  --comm-precision float32|float16|bfloat16  the gradients travel and are added in that
         format (the scenario&apos;s &quot;comm_precision&quot;): fewer bytes on every link, each sum
         rounded to it; a step whose summed gradient overflowed is skipped
  --precision float64|float32  the numbers the model trains in (the scenario&apos;s
         &quot;precision&quot;): with float32 every pass and update runs on floats, half the bytes
         of float64, and the gradients travel as float32 unless --comm-precision narrows them
  --loss-scale S  with a narrower --comm-precision, each gradient is multiplied by S (a
         power of two) before it is rounded and divided again after the sum, so small values
         keep their bits; a step that overflows is skipped and S halved, and after
         --loss-scale-growth K steps (default 2000) without an overflow S doubles
  --compare-precision  each step also works out every worker&apos;s gradient in float64 and
         reports how far the summed gradient the step used was from it (threads only)
</source>
        <translation>
Gradienten-Flags (bulk-synchrone Datenparallelität; der Block &quot;gradients&quot; des Szenarios):
  --bucket-kb B  Gradienten gehen in Buckets von höchstens B KB los, die letzten Schichten
         zuerst, und die Kollektive eines Buckets beginnt, während der Rückwärtsdurchlauf
         weiterläuft (0: ein Bucket, nach dem Rückwärtsdurchlauf)
  --no-overlap  die Buckets warten, bis der Rückwärtsdurchlauf fertig ist
  --paced-links  auf der gemessenen Uhr dauert jede Runde der Kollektive zusätzlich real so
         lange, wie das Kostenmodell sie bepreist (die Geschwindigkeit ihrer Verbindungen),
         damit Überlappung echte Zeit verbirgt
  --accumulate K  K Micro-Batches von --batch Beispielen, vor einer Reduktion aufsummiert
  --fail bucket-order:worker=2,step=5  dieser Worker reduziert seine Buckets in diesem Schritt
         in anderer Reihenfolge: Der Lauf erkennt es an den Nachrichten und hält den Schritt an
  sweep --bucket-kb 0,8,32,128  derselbe Lauf für jede Bucket-Größe: Schrittzeit, die sichtbar
         gebliebene Kommunikation und die schnellste Größe
  --shard optimizer|gradients|parameters  geshardete Datenparallelität, ZeRO-Stufe 1, 2
         oder 3 (&quot;sharding&quot; im Szenario): die Gradienten werden per Reduce-Scatter verteilt,
         jeder Worker hält und aktualisiert den Optimiererzustand nur seines 1/N der
         Parameter, dann werden die Parameter per All-Gather eingesammelt; Stufe 2 behält
         auch vom Gradienten nur sein 1/N; Stufe 3 (FSDP) behält 1/N jeder Schicht und
         sammelt eine Schicht ein, wenn ein Durchlauf sie braucht
  --comm-precision float32|float16|bfloat16  die Gradienten reisen in diesem Format und
         werden darin addiert (&quot;comm_precision&quot; im Szenario): weniger Bytes auf jeder
         Verbindung, jede Summe darauf gerundet; ein Schritt, dessen summierter Gradient
         übergelaufen ist, wird übersprungen
  --precision float64|float32  die Zahlen, in denen das Modell trainiert (&quot;precision&quot; im
         Szenario): mit float32 laufen jeder Durchlauf und jede Aktualisierung auf floats,
         halb so viele Bytes wie float64, und die Gradienten reisen als float32, außer
         --comm-precision macht sie noch schmaler
  --loss-scale S  mit einem schmaleren --comm-precision wird jeder Gradient vor dem Runden
         mit S (einer Zweierpotenz) multipliziert und nach der Summe wieder dadurch geteilt,
         damit kleine Werte ihre Bits behalten; ein Schritt mit Überlauf wird übersprungen und
         S halbiert, und nach --loss-scale-growth K Schritten (Vorgabe 2000) ohne Überlauf
         verdoppelt sich S
  --compare-precision  jeder Schritt berechnet zusätzlich den Gradienten jedes Workers in
         float64 und meldet, wie weit der summierte Gradient des Schritts davon entfernt war
         (nur mit Threads)
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli memory [SCENARIO.json] [--shard none,optimizer,...] [--workers N]
                           [--layers L] [--optimizer sgd|adam] [--batch N] [--json]

Runs one step of the scenario for each way of sharding and prints, kind by kind,
the bytes the worker holding the most keeps: parameters, gradients, optimizer
state, activations and the kernels&apos; workspace, read off its buffers, and the
most parameters it held at once. --shard takes a list of none, optimizer,
gradients and parameters (ZeRO stages 0 to 3); all four by default.
</source>
        <translation>Aufruf: lockstep-cli memory [SCENARIO.json] [--shard none,optimizer,...] [--workers N]
                           [--layers L] [--optimizer sgd|adam] [--batch N] [--json]

Führt für jede Art des Shardings einen Schritt des Szenarios aus und gibt Art für Art
die Bytes aus, die der Worker mit dem meisten Speicher hält: Parameter, Gradienten,
Optimiererzustand, Aktivierungen und den Arbeitsspeicher der Kernel, von seinen
Puffern abgelesen, und die meisten Parameter, die er auf einmal hielt. --shard nimmt
eine Liste aus none, optimizer, gradients und parameters (ZeRO-Stufen 0 bis 3);
ohne sie alle vier.
</translation>
    </message>
    <message>
        <source>params peak</source>
        <translation>Param.-Spitze</translation>
    </message>
    <message>
        <source>ZeRO stage 2: as stage 1, and between steps each worker keeps only its 1/%1 of the summed gradient</source>
        <translation>ZeRO-Stufe 2: wie Stufe 1, und zwischen den Schritten behält jeder Worker nur sein 1/%1 des summierten Gradienten</translation>
    </message>
    <message>
        <source>ZeRO stage 3 (FSDP): each worker keeps 1/%1 of every layer; a layer is all-gathered before forward and again before backward, freed after use, and its gradient reduce-scattered</source>
        <translation>ZeRO-Stufe 3 (FSDP): jeder Worker behält 1/%1 jeder Schicht; eine Schicht wird vor dem Vorwärts- und erneut vor dem Rückwärtsdurchlauf per All-Gather eingesammelt, nach Gebrauch freigegeben, und ihr Gradient per Reduce-Scatter verteilt</translation>
    </message>
    <message>
        <source>%1 (reduce-scatter %2, all-gather %3)</source>
        <translation>%1 (Reduce-Scatter %2, All-Gather %3)</translation>
    </message>
    <message>
        <source>usage: lockstep-cli resume DIR [--json] [--params-out FILE] [--trace FILE]
                           [--trace-detail rounds|phases] [--metrics-csv FILE]
                           [--from-scratch] [--transport mpi [--rank-timeout S]]

Continues the run whose checkpoints are in DIR from its newest complete checkpoint,
skipping partial and corrupt ones and those that do not fit the run, and reports
the run as run does. The run holds DIR while it trains: a second run or resume of
it is refused. When DIR holds checkpoints but none can be used, resume refuses to
start again over them; --from-scratch sets them aside in DIR/set-aside-N first.
</source>
        <translation>Aufruf: lockstep-cli resume DIR [--json] [--params-out FILE] [--trace FILE]
                            [--trace-detail rounds|phases] [--metrics-csv FILE]
                            [--from-scratch] [--transport mpi [--rank-timeout S]]

Setzt den Lauf, dessen Checkpoints in DIR liegen, an seinem neuesten vollständigen
Checkpoint fort, überspringt unvollständige, beschädigte und solche, die nicht zum Lauf
passen, und meldet den Lauf wie run. Solange der Lauf trainiert, gehört DIR ihm: ein
zweiter Lauf oder ein zweites resume darauf wird abgelehnt. Liegen in DIR Checkpoints,
von denen keiner brauchbar ist, beginnt resume nicht über ihnen von vorn; --from-scratch
legt sie zuerst in DIR/set-aside-N beiseite.
</translation>
    </message>
    <message>
        <source>%1: cannot create a scratch directory for the checkpoints</source>
        <translation>%1: kann keinen Arbeitsordner für die Checkpoints anlegen</translation>
    </message>
    <message>
        <source>--rank-timeout: bounds a wait between processes, so it needs --transport mpi</source>
        <translation>--rank-timeout: begrenzt das Warten zwischen Prozessen und braucht daher --transport mpi</translation>
    </message>
    <message>
        <source>note: set the checkpoints this run cannot use aside in %1</source>
        <translation>Hinweis: die Checkpoints, die dieser Lauf nicht nutzen kann, liegen jetzt beiseite in %1</translation>
    </message>
    <message>
        <source>bench needs a kind: allreduce, link or train</source>
        <translation>bench braucht eine Art: allreduce, link oder train</translation>
    </message>
    <message>
        <source>--algorithm: hierarchical needs machines, which bench allreduce has none of; compare it in a run with --nodes M</source>
        <translation>--algorithm: hierarchical braucht Maschinen, und bench allreduce hat keine; vergleiche es in einem Lauf mit --nodes M</translation>
    </message>
    <message>
        <source>usage: lockstep-cli COMMAND [ARGS]
       lockstep-cli --version | --help | COMMAND --help

commands:
  run [SCENARIO.json] [flags]     train with N workers and report time, speedup and loss
  mpirun -np N lockstep-cli run [SCENARIO.json] --transport mpi [flags]
                                  the same run with one process per worker, over Open MPI
  sweep [SCENARIO.json] --workers 1,2,4,8 [--json]
                                  the same scenario over several worker counts
  reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]
                                  combine values the way the engine combines gradients
  resume DIR [--json] [--params-out FILE] [--trace FILE] [--trace-detail D] [--metrics-csv FILE]
         [--from-scratch] [--transport mpi [--rank-timeout S]]
                                  continue a run from its newest complete checkpoint
  checkpoints DIR [--json]        each checkpoint: complete, partial or corrupt, and why
  compare A.json B.json [--target-loss X] [--seeds N] [--json]
                                  two scenarios side by side: time and energy to the same
                                  loss, useful work, synchronisation, waiting, lost work
  compare [SCENARIO.json] --sync bsp,ssp,async,local [--staleness S] [--local-steps H]
                                  one scenario under each way of agreeing, side by side
  moves [SCENARIO.json] [--stages P ...] [--json]
                                  bytes each parallelism moves per step, per link, and waiting
  validate FILE                   check a scenario file; exit 0 or print what is wrong
  memory [SCENARIO.json] [--shard none,optimizer,gradients,parameters] [--json]
                                  what a data-parallel worker holds, kind by kind, per stage
  bench allreduce --algorithm ring --workers 4 --bytes N [--json]
  mpirun -np N lockstep-cli bench allreduce --transport mpi --algorithm ring --bytes N [--json]
  mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]
                                  latency and bandwidth between two processes (ping-pong)
  bench train --layers 2,64,64,2 --batch 32 --steps 200 --workers 1 [--threads N] [--json]
</source>
        <translation>Aufruf: lockstep-cli COMMAND [ARGS]
        lockstep-cli --version | --help | COMMAND --help

Befehle:
  run [SCENARIO.json] [flags]     trainiert mit N Workern und meldet Zeit, Speedup und Verlust
  mpirun -np N lockstep-cli run [SCENARIO.json] --transport mpi [flags]
                                  derselbe Lauf mit einem Prozess pro Worker, über Open MPI
  sweep [SCENARIO.json] --workers 1,2,4,8 [--json]
                                  dasselbe Szenario mit mehreren Worker-Anzahlen
  reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]
                                  kombiniert Werte so, wie die Engine Gradienten kombiniert
  resume DIR [--json] [--params-out FILE] [--trace FILE] [--trace-detail D] [--metrics-csv FILE]
         [--from-scratch] [--transport mpi [--rank-timeout S]]
                                  setzt einen Lauf an seinem neuesten vollständigen Checkpoint fort
  checkpoints DIR [--json]        je Checkpoint: vollständig, teilweise oder beschädigt, und warum
  compare A.json B.json [--target-loss X] [--seeds N] [--json]
                                  zwei Szenarien nebeneinander: Zeit und Energie bis zum selben
                                  Verlust; nützliche und verlorene Arbeit, Synchronisation, Warten
  compare [SCENARIO.json] --sync bsp,ssp,async,local [--staleness S] [--local-steps H]
                                  ein Szenario mit jeder Art der Abstimmung, nebeneinander
  moves [SCENARIO.json] [--stages P ...] [--json]
                                  Bytes je Parallelität pro Schritt und Verbindung sowie das Warten
  validate FILE                   prüft eine Szenariodatei; endet mit 0 oder sagt, was falsch ist
  memory [SCENARIO.json] [--shard none,optimizer,gradients,parameters] [--json]
                                  was ein datenparalleler Worker hält, Art für Art, je Stufe
  bench allreduce --algorithm ring --workers 4 --bytes N [--json]
  mpirun -np N lockstep-cli bench allreduce --transport mpi --algorithm ring --bytes N [--json]
  mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]
                                  Latenz und Bandbreite zwischen zwei Prozessen (Ping-Pong)
  bench train --layers 2,64,64,2 --batch 32 --steps 200 --workers 1 [--threads N] [--json]
</translation>
    </message>
    <message>
        <source>
run flags (override the scenario):
  --workers N  --steps N  --seed N  --batch N (per worker)
  --clock modelled|measured  --rule sum|mean|weighted-mean
  --algorithm parameter-server|ring|tree|hierarchical|none (mpi-allreduce: Open MPI&apos;s own, with
         --transport mpi; hierarchical: inside each machine, then across, with --nodes)
  --nodes M  the workers in M machines (workers / M each): fast links inside a machine, a
         100 Mbit/s network between machines (a scenario&apos;s &quot;topology&quot; sets other links)
  --transport threads|mpi  threads (default): every worker a thread of this process; mpi: each
         process that mpirun starts is one worker, on the measured clock (see docs/MPI.md)
  --rank-timeout S  with --transport mpi: a rank that waits S seconds (default 30) for another
         asks which ranks are alive, and the job ends naming the ones that did not answer
  --layers 2,8,2  --activation tanh|relu|sigmoid|linear
  --optimizer sgd|adam  --lr X  --momentum X
  --dataset spiral|circles|xor|clusters|regression|FILE.csv  --shuffle on|off
  --init-params FILE.json  --params-out FILE.json
  --trace FILE.json (Chrome trace, written as the run goes)  --metrics-csv FILE  --json
  --trace-detail rounds|phases  rounds (default): every event, one slice per collective
         round per worker; phases: a worker&apos;s consecutive rounds and the waits between them
         as one &quot;collective&quot; slice, for crowds (a 256-worker ring: 256 slices a step, not 130,000)
  --checkpoint-dir DIR  --checkpoint-every K  --keep M  --restore full|weights-only
  --fail SPEC (repeatable): crash:worker=2,step=30,phase=compute|communicate|update|
         before-fsync|after-fsync|after-rename   pause:worker=1,step=10,seconds=5
         slow-link:worker=3,step=0,factor=4      corrupt:worker=0,step=20[,how=truncate]
  --policy restart|elastic|backup  --backup-workers B  --heartbeat SECONDS
  --parallelism data|pipeline|tensor|hybrid  --stages P  --microbatches M
  --schedule fill-drain|1f1b  --replicas D (hybrid)
  --sync bsp|ssp|async|local  how often the workers agree: every step (bsp, the default), when
         the slowest is more than --staleness S clocks behind (ssp), never: each gradient applied
         as it arrives (async, --staleness-aware-lr), or by averaging the replicas every
         --local-steps H steps (local). ssp and async go through a parameter server.
</source>
        <translation>
Flags von run (überschreiben das Szenario):
  --workers N  --steps N  --seed N  --batch N (pro Worker)
  --clock modelled|measured  --rule sum|mean|weighted-mean
  --algorithm parameter-server|ring|tree|hierarchical|none (mpi-allreduce: das von Open MPI,
         mit --transport mpi; hierarchical: erst in jeder Maschine, dann zwischen ihnen, mit --nodes)
  --nodes M  die Worker auf M Maschinen (je Worker / M): schnelle Verbindungen in einer Maschine,
         ein Netz mit 100 Mbit/s zwischen den Maschinen (die &quot;topology&quot; eines Szenarios setzt andere)
  --transport threads|mpi  threads (Standard): jeder Worker ein Thread dieses Prozesses; mpi:
         jeder von mpirun gestartete Prozess ist ein Worker, auf der gemessenen Uhr (docs/MPI.md)
  --rank-timeout S  mit --transport mpi: ein Rang, der S Sekunden (Standard 30) auf einen anderen
         wartet, fragt, welche Ränge leben; der Job endet und nennt die, die nicht antworten
  --layers 2,8,2  --activation tanh|relu|sigmoid|linear
  --optimizer sgd|adam  --lr X  --momentum X
  --dataset spiral|circles|xor|clusters|regression|FILE.csv  --shuffle on|off
  --init-params FILE.json  --params-out FILE.json
  --trace FILE.json (Chrome-Trace, während des Laufs geschrieben)  --metrics-csv FILE  --json
  --trace-detail rounds|phases  rounds (Standard): jedes Ereignis, ein Slice je Kollektivrunde und
         Worker; phases: aufeinanderfolgende Runden eines Workers samt den Wartezeiten als ein
         &quot;collective&quot;-Slice, für viele Worker (Ring aus 256: 256 Slices je Schritt statt 130 000)
  --checkpoint-dir DIR  --checkpoint-every K  --keep M  --restore full|weights-only
  --fail SPEC (wiederholbar): crash:worker=2,step=30,phase=compute|communicate|update|
         before-fsync|after-fsync|after-rename   pause:worker=1,step=10,seconds=5
         slow-link:worker=3,step=0,factor=4      corrupt:worker=0,step=20[,how=truncate]
  --policy restart|elastic|backup  --backup-workers B  --heartbeat SECONDS
  --parallelism data|pipeline|tensor|hybrid  --stages P  --microbatches M
  --schedule fill-drain|1f1b  --replicas D (hybrid)
  --sync bsp|ssp|async|local  wie oft sich die Worker abstimmen: jeden Schritt (bsp, Standard),
         wenn der langsamste mehr als --staleness S Takte zurückliegt (ssp), nie: jeder Gradient
         wirkt, sobald er ankommt (async, --staleness-aware-lr), oder durch Mitteln der Repliken
         alle --local-steps H Schritte (local). ssp und async laufen über einen Parameterserver.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli bench allreduce|link|train [flags]

Measures this machine. See lockstep-cli bench allreduce --help,
lockstep-cli bench link --help and lockstep-cli bench train --help.
</source>
        <translation>Aufruf: lockstep-cli bench allreduce|link|train [flags]

Misst diesen Rechner. Siehe lockstep-cli bench allreduce --help,
lockstep-cli bench link --help und lockstep-cli bench train --help.
</translation>
    </message>
    <message>
        <source>usage: mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]

Measures the link between rank 0 and the last rank by ping-pong: 8 bytes and N
bytes (default 1048576) there and back, 20 times each. The latency is half the
small message&apos;s round trip, the bandwidth the large one&apos;s extra bytes over its
extra time: the two numbers a scenario&apos;s topology.inter takes. Start the ranks on
two machines (a hostfile, or scripts/two-hosts.sh) to measure the network.
</source>
        <translation>Aufruf: mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]

Misst die Verbindung zwischen Rang 0 und dem letzten Rang per Ping-Pong: 8 Bytes und
N Bytes (Standard 1048576) hin und zurück, je 20-mal. Die Latenz ist die halbe
Hin- und Rücklaufzeit der kleinen Nachricht, die Bandbreite die zusätzlichen Bytes
der großen durch ihre zusätzliche Zeit: die beiden Zahlen, die topology.inter eines
Szenarios braucht. Starte die Ränge auf zwei Maschinen (eine Hostdatei oder
scripts/two-hosts.sh), um das Netz zu messen.
</translation>
    </message>
    <message>
        <source>link from rank 0 (%1) to rank %2 (%3), ping-pong of 8 and %4 bytes, %5 times each:
</source>
        <translation>Verbindung von Rang 0 (%1) zu Rang %2 (%3), Ping-Pong mit 8 und %4 Bytes, je %5-mal:
</translation>
    </message>
    <message>
        <source>  latency %1 µs (half the round trip of 8 bytes), bandwidth %2 Mbit/s
</source>
        <translation>  Latenz %1 µs (die halbe Hin- und Rücklaufzeit von 8 Bytes), Bandbreite %2 Mbit/s
</translation>
    </message>
    <message>
        <source>  for a scenario: &quot;topology&quot;: {..., &quot;inter&quot;: %1}
</source>
        <translation>  für ein Szenario: &quot;topology&quot;: {..., &quot;inter&quot;: %1}
</translation>
    </message>
    <message>
        <source>between machines</source>
        <translation>zwischen Maschinen</translation>
    </message>
    <message>
        <source>%1 bytes crossed the network (%2 machines of %3 workers, %4 Mbit/s)</source>
        <translation>%1 Bytes gingen über das Netz (%2 Maschinen mit je %3 Workern, %4 Mbit/s)</translation>
    </message>
    <message>
        <source>--nodes: %1 workers cannot be shared evenly among %2 machines; give a number of machines that divides the workers</source>
        <translation>--nodes: %1 Worker lassen sich nicht gleichmäßig auf %2 Maschinen verteilen; gib eine Zahl von Maschinen an, die die Zahl der Worker teilt</translation>
    </message>
    <message>
        <source>teacher&apos;s link used; the next one: %1
</source>
        <translation>Lehrkraft-Link benutzt; der nächste: %1
</translation>
    </message>
    <message>
        <source>--resume goes on with the journal&apos;s quiz: it takes no --journal or --questions</source>
        <translation>--resume setzt das Quiz des Journals fort: es nimmt kein --journal und kein --questions</translation>
    </message>
    <message>
        <source>--journal: cannot write %1: %2</source>
        <translation>--journal: kann %1 nicht schreiben: %2</translation>
    </message>
    <message>
        <source>journal: %1
</source>
        <translation>Journal: %1
</translation>
    </message>
    <message>
        <source>resumed: %1 students, question %2 of %3, %4%5
</source>
        <translation>fortgesetzt: %1 Schüler, Frage %2 von %3, %4%5
</translation>
    </message>
    <message>
        <source> (a last line cut off was dropped)</source>
        <translation> (eine abgeschnittene letzte Zeile wurde verworfen)</translation>
    </message>
    <message>
        <source>cannot write to the journal %1: %2; changes are refused from now on</source>
        <translation>kann nicht ins Journal %1 schreiben: %2; ab jetzt werden Änderungen abgelehnt</translation>
    </message>
    <message>
        <source>
a live class quiz, answered from the students&apos; browsers (docs/CLASS.md):
  class serve BANK [--questions id,id] [--port N] [--bind ADDRESS] [--max-students N]
                   [--results FILE.csv] [--journal FILE | --resume FILE]
                   [--blocked-words FILE] [--root DIR]
                                  serves the quiz on this machine&apos;s classroom (private)
                                  addresses, port 8080 by default; prints the students&apos; address,
                                  the join code and the teacher&apos;s one-time link. Every change is
                                  in the journal on disk before it is acknowledged (--journal, or
                                  a new file in the data folder); --resume FILE goes on with a
                                  quiz from its journal, with the same code and tokens.
                                  --blocked-words FILE: words (one a line) no name may hold.
                                  Ctrl+C or SIGTERM ends it after writing the results.
</source>
        <translation>
ein Live-Klassenquiz, beantwortet in den Browsern der Schüler (docs/CLASS.md):
  class serve BANK [--questions id,id] [--port N] [--bind ADDRESS] [--max-students N]
                   [--results FILE.csv] [--journal FILE | --resume FILE]
                   [--blocked-words FILE] [--root DIR]
                                  bietet das Quiz unter den (privaten) Klassenraum-Adressen dieses
                                  Rechners an, standardmäßig auf Port 8080; nennt die Adresse für
                                  die Schüler, den Beitrittscode und den einmaligen Link der
                                  Lehrkraft. Jede Änderung steht im Journal auf der Platte, bevor
                                  sie bestätigt wird (--journal, sonst eine neue Datei im
                                  Datenordner); --resume DATEI setzt ein Quiz aus seinem Journal
                                  fort, mit demselben Code und denselben Tokens.
                                  --blocked-words DATEI: Wörter (eins pro Zeile), die kein Name
                                  enthalten darf.
                                  Ctrl+C oder SIGTERM schreibt die Ergebnisse und beendet es.
</translation>
    </message>
    <message>
        <source>--blocked-words: cannot read %1: %2</source>
        <translation>--blocked-words: %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>--blocked-words: %1 is over 1 MiB; it should be a list of words</source>
        <translation>--blocked-words: %1 ist größer als 1 MiB; es sollte eine Liste von Wörtern sein</translation>
    </message>
    <message>
        <source>--blocked-words: %1 is not UTF-8 text</source>
        <translation>--blocked-words: %1 ist kein UTF-8-Text</translation>
    </message>
</context>
<context>
    <name>LockstepMain</name>
    <message>
        <source>Lockstep: a lab for distributed training</source>
        <translation>Lockstep: ein Labor für verteiltes Training</translation>
    </message>
    <message>
        <source>Print the version, and where the lessons, scenarios and quiz banks are read from.</source>
        <translation>Gibt die Version aus und zeigt, woher Lektionen, Szenarien und Fragenkataloge gelesen werden.</translation>
    </message>
    <message>
        <source>Scenario file to open.</source>
        <translation>Zu öffnende Szenariodatei.</translation>
    </message>
    <message>
        <source>With --screenshot: one view (%1).</source>
        <translation>Mit --screenshot: eine Ansicht (%1).</translation>
    </message>
    <message>
        <source>With --screenshot: place the playhead here (seconds on the run&apos;s clock; default: the end).</source>
        <translation>Mit --screenshot: den Abspielkopf hierhin setzen (Sekunden auf der Uhr des Laufs; Standard: das Ende).</translation>
    </message>
    <message>
        <source>Render offscreen to this PNG (or .svg) and exit.</source>
        <translation>Unsichtbar in diese PNG-Datei (oder .svg) zeichnen und beenden.</translation>
    </message>
    <message>
        <source>With --screenshot: window size, WxH (default 1600x1000).</source>
        <translation>Mit --screenshot: Fenstergröße, WxH (Standard 1600x1000).</translation>
    </message>
    <message>
        <source>Open a lesson (its page, scenario and views), e.g. speedup.</source>
        <translation>Eine Lektion öffnen (ihre Seite, ihr Szenario und ihre Ansichten), z. B. speedup.</translation>
    </message>
    <message>
        <source>Headless: write the trace as the lab then holds it (Chrome Trace Event JSON, like lockstep-cli run --trace) and exit.</source>
        <translation>Ohne Fenster: den Trace so schreiben, wie das Labor ihn dann hält (Chrome Trace Event JSON, wie lockstep-cli run --trace), und beenden.</translation>
    </message>
    <message>
        <source>Play back a recorded run: the trace of a run over processes (lockstep-cli run --transport mpi --trace FILE).</source>
        <translation>Einen aufgezeichneten Lauf abspielen: den Trace eines Laufs über Prozesse (lockstep-cli run --transport mpi --trace FILE).</translation>
    </message>
    <message>
        <source>Start a class quiz on the bank BANK (e.g. reductions): the projector&apos;s window, served on port 8080 of this computer&apos;s classroom addresses.</source>
        <translation>Ein Klassenquiz mit dem Fragenkatalog BANK starten (z. B. reductions): das Fenster für den Projektor, bereitgestellt auf Port 8080 der Klassenraumadressen dieses Computers.</translation>
    </message>
    <message>
        <source>The language of the window, the lessons and the quizzes: %1 (default: the one chosen under View → Language, else the system&apos;s).</source>
        <translation>Die Sprache des Fensters, der Lektionen und der Quizze: %1 (Standard: die unter Ansicht → Sprache gewählte, sonst die des Systems).</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos; (scenarios are opened with --scenario FILE)</source>
        <translation>unerwartetes Argument &apos;%1&apos; (Szenarien werden mit --scenario FILE geöffnet)</translation>
    </message>
    <message>
        <source>--replay brings its own scenario; leave out --scenario and --lesson</source>
        <translation>--replay bringt ein eigenes Szenario mit; lass --scenario und --lesson weg</translation>
    </message>
    <message>
        <source>--replay: </source>
        <translation>--replay: </translation>
    </message>
    <message>
        <source>--lesson brings its own scenario; leave out --scenario</source>
        <translation>--lesson bringt ein eigenes Szenario mit; lass --scenario weg</translation>
    </message>
    <message>
        <source>--lesson: </source>
        <translation>--lesson: </translation>
    </message>
    <message>
        <source>--action &apos;%1&apos;: %2</source>
        <translation>--action &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <source>--action goes with --screenshot or --trace-out</source>
        <translation>--action geht nur zusammen mit --screenshot oder --trace-out</translation>
    </message>
    <message>
        <source>--class-quiz opens a window: it does not go with --screenshot or --trace-out</source>
        <translation>--class-quiz öffnet ein Fenster: Es geht nicht zusammen mit --screenshot oder --trace-out</translation>
    </message>
    <message>
        <source>--view and --play-to go with --screenshot</source>
        <translation>--view und --play-to gehen nur zusammen mit --screenshot</translation>
    </message>
    <message>
        <source>--class-quiz %1: the quiz could not start</source>
        <translation>--class-quiz %1: Das Quiz konnte nicht starten</translation>
    </message>
    <message>
        <source>--size: expected WxH between 200x150 and 8000x8000, got &apos;%1&apos;</source>
        <translation>--size: erwartet WxH zwischen 200x150 und 8000x8000, erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--view: must be one of %1, got &apos;%2&apos;</source>
        <translation>--view: muss eines von %1 sein, erhalten: &apos;%2&apos;</translation>
    </message>
    <message>
        <source>--trace-out: %1</source>
        <translation>--trace-out: %1</translation>
    </message>
    <message>
        <source>--play-to: expected seconds (a number &gt;= 0), got &apos;%1&apos;</source>
        <translation>--play-to: erwartet Sekunden (eine Zahl &gt;= 0), erhalten: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>cannot write the screenshot</source>
        <translation>Bildschirmfoto kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Start in the high-contrast theme for projectors (View → High Contrast).</source>
        <translation>Im kontrastreichen Design für Beamer starten (Ansicht → Hoher Kontrast).</translation>
    </message>
    <message>
        <source>Headless: when the playhead reaches T seconds on the run&apos;s clock, apply the lesson link LINK as a click would (e.g. 0.1:lockstep:crash?worker=2); T &apos;end&apos; applies it after the run has finished, as a click at its end would (the run plays again from step 0 with it). Repeatable; applied in time order.</source>
        <translation>Ohne Fenster: Wenn der Abspielkopf T Sekunden auf der Uhr des Laufs erreicht, den Lektionslink LINK anwenden, wie ein Klick es täte (z. B. 0.1:lockstep:crash?worker=2); T &apos;end&apos; wendet ihn an, nachdem der Lauf zu Ende ist, wie ein Klick an seinem Ende (der Lauf spielt dann mit ihm noch einmal ab Schritt 0). Wiederholbar; in zeitlicher Reihenfolge angewendet.</translation>
    </message>
    <message>
        <source>--action: expected T:LINK with T in seconds (a number &gt;= 0) or &apos;end&apos;, e.g. 0.1:lockstep:crash?worker=2 or end:lockstep:set?rule=sum, got &apos;%1&apos;</source>
        <translation>--action: erwartet T:LINK mit T in Sekunden (eine Zahl &gt;= 0) oder &apos;end&apos;, z. B. 0.1:lockstep:crash?worker=2 oder end:lockstep:set?rule=sum, erhalten: &apos;%1&apos;</translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>parameter server</source>
        <translation>Parameterserver</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>tree</source>
        <translation>Baum</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>sum</source>
        <translation>Summe</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>weighted mean</source>
        <translation>gewichteter Mittelwert</translation>
    </message>
    <message>
        <source>bsp</source>
        <translation>bsp</translation>
    </message>
    <message>
        <source>ssp</source>
        <translation>ssp</translation>
    </message>
    <message>
        <source>async</source>
        <translation>async</translation>
    </message>
    <message>
        <source>local SGD</source>
        <translation>lokales SGD</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>modelled</source>
        <translation>modelliert</translation>
    </message>
    <message>
        <source>data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>hybrid</source>
        <translation>hybrid</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>fill-drain</source>
        <translation>Füllen-Leeren</translation>
    </message>
    <message>
        <source>weights only</source>
        <translation>nur Gewichte</translation>
    </message>
    <message>
        <source>full</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>Reduzieren</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>Warten</translation>
    </message>
    <message>
        <source>update</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>communicate</source>
        <translation>Kommunizieren</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>checkpoint write</source>
        <translation>Checkpoint schreiben</translation>
    </message>
    <message>
        <source>checkpoint sync</source>
        <translation>Checkpoint synchronisieren</translation>
    </message>
    <message>
        <source>checkpoint commit</source>
        <translation>Checkpoint festschreiben</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>ausgefallen</translation>
    </message>
    <message>
        <source>detect</source>
        <translation>Erkennen</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>damage</source>
        <translation>Beschädigung</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>rückwärts</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>Blase</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>unvollständig</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>beschädigt</translation>
    </message>
    <message>
        <source>no manifest</source>
        <translation>kein Manifest</translation>
    </message>
    <message>
        <source>missing file</source>
        <translation>fehlende Datei</translation>
    </message>
    <message>
        <source>size mismatch</source>
        <translation>Größe stimmt nicht</translation>
    </message>
    <message>
        <source>checksum mismatch</source>
        <translation>Prüfsumme stimmt nicht</translation>
    </message>
    <message>
        <source>bad version</source>
        <translation>falsche Version</translation>
    </message>
    <message>
        <source>bad name in manifest</source>
        <translation>falscher Name im Manifest</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>unlesbar</translation>
    </message>
    <message>
        <source>wrong scenario</source>
        <translation>falsches Szenario</translation>
    </message>
    <message>
        <source>wrong worker count</source>
        <translation>falsche Anzahl Worker</translation>
    </message>
    <message>
        <source>does not fit this run</source>
        <translation>passt nicht zu diesem Lauf</translation>
    </message>
    <message>
        <source>bucket mismatch</source>
        <translation>falscher Bucket</translation>
    </message>
    <message>
        <source>ZeRO 1: optimizer state sharded</source>
        <translation>ZeRO 1: Zustand des Optimierers geteilt</translation>
    </message>
    <message>
        <source>ZeRO 2: gradients and optimizer state sharded</source>
        <translation>ZeRO 2: Gradienten und Zustand des Optimierers geteilt</translation>
    </message>
    <message>
        <source>ZeRO 3 (FSDP): parameters, gradients and optimizer state sharded</source>
        <translation>ZeRO 3 (FSDP): Parameter, Gradienten und Zustand des Optimierers geteilt</translation>
    </message>
    <message>
        <source>no sharding</source>
        <translation>ohne Sharding</translation>
    </message>
    <message>
        <source>all-gather of layer %1</source>
        <translation>All-Gather von Schicht %1</translation>
    </message>
    <message>
        <source>all-gather of the parameters</source>
        <translation>All-Gather der Parameter</translation>
    </message>
    <message>
        <source>reduce-scatter of layer %1&apos;s gradient</source>
        <translation>Reduce-Scatter des Gradienten von Schicht %1</translation>
    </message>
    <message>
        <source>reduce-scatter of the gradient</source>
        <translation>Reduce-Scatter des Gradienten</translation>
    </message>
    <message>
        <source>hierarchical</source>
        <translation>hierarchisch</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>computing</source>
        <translation>rechnet</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>sendet</translation>
    </message>
    <message>
        <source>receiving</source>
        <translation>empfängt</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>updating</source>
        <translation>aktualisiert</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>schreibt Checkpoint</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>ausgefallen</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>checkpoint: writing</source>
        <translation>Checkpoint: schreibt</translation>
    </message>
    <message>
        <source>checkpoint: renaming</source>
        <translation>Checkpoint: benennt um</translation>
    </message>
    <message>
        <source>checkpoint: syncing</source>
        <translation>Checkpoint: synchronisiert</translation>
    </message>
    <message>
        <source>checkpoint: committing</source>
        <translation>Checkpoint: schreibt fest</translation>
    </message>
    <message>
        <source>checkpoint: verifying</source>
        <translation>Checkpoint: prüft</translation>
    </message>
    <message>
        <source>checkpoint: restoring</source>
        <translation>Checkpoint: stellt wieder her</translation>
    </message>
</context>
<context>
    <name>QrCode</name>
    <message>
        <source>QR code of the students&apos; address</source>
        <translation>QR-Code der Adresse für die Lernenden</translation>
    </message>
</context>
<context>
    <name>RecoveryCaption</name>
    <message>
        <source>Worker %1 stopped in step %2. The others cannot tell yet: they wait for its heartbeat, which times out at t = %3 s.</source>
        <translation>Worker %1 ist in Schritt %2 ausgefallen. Die anderen können es noch nicht wissen: Sie warten auf seinen Herzschlag, der bei t = %3 s ausbleibt.</translation>
    </message>
    <message>
        <source>Worker %1 stopped in step %2. The others cannot tell yet: they wait for its heartbeat.</source>
        <translation>Worker %1 ist in Schritt %2 ausgefallen. Die anderen können es noch nicht wissen: Sie warten auf seinen Herzschlag.</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead, and the others go on without it.</source>
        <translation>Der Herzschlag von Worker %1 blieb bei t = %2 s aus: Er gilt als ausgefallen, und die anderen machen ohne ihn weiter.</translation>
    </message>
    <message>
        <source>1 step of work is done again</source>
        <translation>1 Schritt Arbeit wird wiederholt</translation>
    </message>
    <message>
        <source>%1 steps of work are done again</source>
        <translation>%1 Schritte Arbeit werden wiederholt</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead. There is no checkpoint to load, so the run starts over from step 0: %3.</source>
        <translation>Der Herzschlag von Worker %1 blieb bei t = %2 s aus: Er gilt als ausgefallen. Es gibt keinen Checkpoint zum Laden, also beginnt der Lauf wieder bei Schritt 0: %3.</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead. One scan of the checkpoint folder finds the newest complete checkpoint (every file and its manifest written), the checkpoint of step %3; every worker loads that same one and they do steps %3 to %4 again: %5.</source>
        <translation>Der Herzschlag von Worker %1 blieb bei t = %2 s aus: Er gilt als ausgefallen. Ein einziger Blick in den Checkpoint-Ordner findet den neuesten vollständigen Checkpoint (jede Datei und ihr Manifest geschrieben), den Checkpoint von Schritt %3; jeder Worker lädt genau diesen, und sie rechnen die Schritte %3 bis %4 noch einmal: %5.</translation>
    </message>
</context>
<context>
    <name>StepStory</name>
    <message>
        <source>%1 seconds</source>
        <translation>%1 Sekunden</translation>
    </message>
    <message>
        <source>%1 milliseconds</source>
        <translation>%1 Millisekunden</translation>
    </message>
    <message>
        <source>%1 microseconds</source>
        <translation>%1 Mikrosekunden</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>Step %1.</source>
        <translation>Schritt %1.</translation>
    </message>
    <message>
        <source>Worker %1 is down.</source>
        <translation>Worker %1 ist ausgefallen.</translation>
    </message>
    <message>
        <source>Workers %1 are down.</source>
        <translation>Die Worker %1 sind ausgefallen.</translation>
    </message>
    <message>
        <source>worker %1 waits %2</source>
        <translation>Worker %1 wartet %2</translation>
    </message>
    <message>
        <source>workers %1 wait up to %2</source>
        <translation>die Worker %1 warten bis zu %2</translation>
    </message>
    <message>
        <source>Worker %1 is %2 times slower</source>
        <translation>Worker %1 ist %2-mal langsamer</translation>
    </message>
    <message>
        <source>%1; %2.</source>
        <translation>%1; %2.</translation>
    </message>
    <message>
        <source>All %1 workers compute and agree without waiting.</source>
        <translation>Alle %1 Worker rechnen und einigen sich, ohne zu warten.</translation>
    </message>
    <message>
        <source>The checkpoint of step %1 is committed.</source>
        <translation>Der Checkpoint von Schritt %1 ist festgeschrieben.</translation>
    </message>
    <message>
        <source>The workers restore the checkpoint of step %1.</source>
        <translation>Die Worker stellen den Checkpoint von Schritt %1 wieder her.</translation>
    </message>
    <message>
        <source>The replicas now differ.</source>
        <translation>Die Repliken unterscheiden sich jetzt.</translation>
    </message>
</context>
<context>
    <name>Syllabus</name>
    <message>
        <source>speedup is not automatic</source>
        <translation>Speedup kommt nicht von selbst</translation>
    </message>
    <message>
        <source>every replica holds the whole model</source>
        <translation>jede Replik hält das ganze Modell</translation>
    </message>
    <message>
        <source>reductions must be explicit</source>
        <translation>Reduktionen müssen ausdrücklich festgelegt sein</translation>
    </message>
    <message>
        <source>a late worker makes the others wait</source>
        <translation>ein verspäteter Worker lässt die anderen warten</translation>
    </message>
    <message>
        <source>model parallelism moves activations</source>
        <translation>Modellparallelität bewegt Aktivierungen</translation>
    </message>
    <message>
        <source>a checkpoint holds everything</source>
        <translation>ein Checkpoint enthält alles</translation>
    </message>
    <message>
        <source>a partial file is not a recovery point</source>
        <translation>eine unvollständige Datei ist kein Wiederherstellungspunkt</translation>
    </message>
    <message>
        <source>a fair comparison counts useful work</source>
        <translation>ein fairer Vergleich zählt nützliche Arbeit</translation>
    </message>
    <message>
        <source>is a small gain worth the cost?</source>
        <translation>ist ein kleiner Gewinn die Kosten wert?</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>communicate</source>
        <translation>Kommunizieren</translation>
    </message>
    <message>
        <source>update</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>Warten</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>ausgefallen</translation>
    </message>
</context>
<context>
    <name>View</name>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>Speedup</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>&lt;h2&gt;Welcome to the lab&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Willkommen im Labor&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Several &lt;b&gt;workers&lt;/b&gt; are training one small neural network together. Each holds a full copy (a &lt;i&gt;replica&lt;/i&gt;) of the model and learns from its own share of the data. After every step they must agree on one combined gradient, or their copies stop being the same model.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Mehrere &lt;b&gt;Worker&lt;/b&gt; trainieren gemeinsam ein kleines neuronales Netz. Jeder hält eine vollständige Kopie (eine &lt;i&gt;Replik&lt;/i&gt;) des Modells und lernt aus seinem eigenen Anteil der Daten. Nach jedem Schritt müssen sie sich auf einen gemeinsamen Gradienten einigen, sonst sind ihre Kopien bald nicht mehr dasselbe Modell.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;What you see&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Was du siehst&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Cluster&lt;/b&gt;: the workers, connected the way the chosen collective connects them. Colour, letter and label say what each worker is doing. Green dots are chunks of gradient on their way.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Cluster&lt;/b&gt;: die Worker, so verbunden, wie das gewählte Kollektiv sie verbindet. Farbe, Buchstabe und Beschriftung zeigen, was jeder Worker gerade tut. Grüne Punkte sind Gradientenstücke auf dem Weg.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Timeline&lt;/b&gt;: one lane per worker. Hatched red is &lt;i&gt;waiting&lt;/i&gt;: time a worker spends doing nothing because someone else is not ready.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Zeitleiste&lt;/b&gt;: eine Spur pro Worker. Rot schraffiert ist &lt;i&gt;Warten&lt;/i&gt;: Zeit, in der ein Worker nichts tut, weil ein anderer noch nicht bereit ist.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Training&lt;/b&gt;: the loss going down, and what the model has learned so far.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Training&lt;/b&gt;: wie der Verlust sinkt und was das Modell bisher gelernt hat.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Speedup&lt;/b&gt;: how much faster more workers make a step, against the ideal line.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Speedup&lt;/b&gt;: wie viel schneller mehr Worker einen Schritt schaffen, verglichen mit der idealen Linie.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Checkpoints&lt;/b&gt;: the files on disk, each in its state of the commit protocol; after a crash, the recovery&apos;s scan for the newest complete checkpoint.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Checkpoints&lt;/b&gt;: die Dateien auf der Festplatte, jede in ihrem Zustand des Commit-Protokolls; nach einem Absturz die Suche der Wiederherstellung nach dem neuesten vollständigen Checkpoint.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Try this&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Probier das aus&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Press &lt;b&gt;Space&lt;/b&gt; to play, &lt;b&gt;Right&lt;/b&gt;/&lt;b&gt;Left&lt;/b&gt; to step through events one by one.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Drück &lt;b&gt;Leertaste&lt;/b&gt; zum Abspielen und &lt;b&gt;Pfeil rechts&lt;/b&gt;/&lt;b&gt;Pfeil links&lt;/b&gt;, um Ereignis für Ereignis durchzugehen.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Click a worker and slow it down: watch the others start to wait.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Klick einen Worker an und verlangsame ihn: Sieh zu, wie die anderen zu warten beginnen.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Set the collective to &lt;i&gt;none&lt;/i&gt; and run: the replicas drift apart.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Stell das Kollektiv auf &lt;i&gt;keine&lt;/i&gt; und starte den Lauf: Die Repliken driften auseinander.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Press &lt;b&gt;F11&lt;/b&gt; for presentation mode.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Drück &lt;b&gt;F11&lt;/b&gt; für den Präsentationsmodus.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Memory&lt;/b&gt;: what each worker holds at the playhead, kind by kind: parameters, gradients, optimizer state, activations.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Speicher&lt;/b&gt;: was jeder Worker am Abspielkopf hält, Art für Art: Parameter, Gradienten, Zustand des Optimierers, Aktivierungen.&lt;/li&gt;</translation>
    </message>
</context>
<context>
    <name>lockstep::app::AnswerHistogram</name>
    <message>
        <source>The class&apos;s answers</source>
        <translation>Die Antworten der Klasse</translation>
    </message>
    <message>
        <source>%1  ✓ right</source>
        <translation>%1  ✓ richtig</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ChangeDescription</name>
    <message>
        <source>rule → %1</source>
        <translation>Regel → %1</translation>
    </message>
    <message>
        <source>collective → %1</source>
        <translation>Kollektiv → %1</translation>
    </message>
    <message>
        <source>learning rate → %1</source>
        <translation>Lernrate → %1</translation>
    </message>
    <message>
        <source>slowdown → %1</source>
        <translation>Verlangsamung → %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>agreement → %1</source>
        <translation>Abstimmung → %1</translation>
    </message>
    <message>
        <source>staleness bound → %1</source>
        <translation>Veraltungsgrenze → %1</translation>
    </message>
    <message>
        <source>averaging every %1 steps</source>
        <translation>Mitteln alle %1 Schritte</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 Worker</translation>
    </message>
    <message>
        <source>batch → %1 per worker</source>
        <translation>Batch → %1 pro Worker</translation>
    </message>
    <message>
        <source>communication → %1 s in all</source>
        <translation>Kommunikation → %1 s insgesamt</translation>
    </message>
    <message>
        <source>one worker&apos;s compute → %1 s</source>
        <translation>Rechenzeit eines Workers → %1 s</translation>
    </message>
    <message>
        <source>seed → %1</source>
        <translation>Startwert → %1</translation>
    </message>
    <message>
        <source>layers → %1</source>
        <translation>Schichten → %1</translation>
    </message>
    <message>
        <source>clock → %1</source>
        <translation>Uhr → %1</translation>
    </message>
    <message>
        <source>a random straggler with chance %1 per worker and step</source>
        <translation>ein zufälliger Nachzügler mit Wahrscheinlichkeit %1 pro Worker und Schritt</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 Schritte</translation>
    </message>
    <message>
        <source>sharding → %1</source>
        <translation>Sharding → %1</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ClassQuizDialog</name>
    <message>
        <source>Start a Class Quiz</source>
        <translation>Klassenquiz starten</translation>
    </message>
    <message>
        <source>Quiz bank</source>
        <translation>Fragenkatalog</translation>
    </message>
    <message>
        <source>&amp;Quiz:</source>
        <translation>&amp;Quiz:</translation>
    </message>
    <message>
        <source>Questions to ask</source>
        <translation>Zu stellende Fragen</translation>
    </message>
    <message>
        <source>Q&amp;uestions:</source>
        <translation>&amp;Fragen:</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>Every classroom address of this computer</source>
        <translation>Alle Klassenraumadressen dieses Computers</translation>
    </message>
    <message>
        <source>Address to listen on</source>
        <translation>Adresse, auf der gelauscht wird</translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation>&amp;Adresse:</translation>
    </message>
    <message>
        <source>Students open the address shown on the projector, on this classroom&apos;s network. Nothing leaves it.</source>
        <translation>Die Lernenden öffnen die Adresse, die der Projektor zeigt, im Netz dieses Klassenraums. Nichts verlässt dieses Netz.</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>Tick at least one question.</source>
        <translation>Wähle mindestens eine Frage aus.</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ClassWindow</name>
    <message>
        <source>Class Quiz: %1</source>
        <translation>Klassenquiz: %1</translation>
    </message>
    <message>
        <source>Join address</source>
        <translation>Beitrittsadresse</translation>
    </message>
    <message>
        <source>Join code</source>
        <translation>Beitrittscode</translation>
    </message>
    <message>
        <source>Students who have joined</source>
        <translation>Beigetretene Lernende</translation>
    </message>
    <message>
        <source>&amp;Lock the lobby</source>
        <translation>Lobby &amp;sperren</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Answers so far</source>
        <translation>Bisherige Antworten</translation>
    </message>
    <message>
        <source>The answer and the engine&apos;s working</source>
        <translation>Die Antwort und der Rechenweg der Engine</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Richtig</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Punktestand</translation>
    </message>
    <message>
        <source>Replay in the &amp;Lab</source>
        <translation>Im &amp;Labor nachspielen</translation>
    </message>
    <message>
        <source>&amp;Export Results…</source>
        <translation>Ergebnisse e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Join at %1</source>
        <translation>Beitreten unter %1</translation>
    </message>
    <message>
        <source>Code: %1</source>
        <translation>Code: %1</translation>
    </message>
    <message>
        <source>1 student has joined</source>
        <translation>1 Person ist beigetreten</translation>
    </message>
    <message>
        <source>%1 students have joined</source>
        <translation>%1 Personen sind beigetreten</translation>
    </message>
    <message>
        <source>Question %1 of %2 · %3</source>
        <translation>Frage %1 von %2 · %3</translation>
    </message>
    <message>
        <source>%1 questions are ready. Open the first when the class has joined.</source>
        <translation>%1 Fragen sind bereit. Öffne die erste, wenn die Klasse beigetreten ist.</translation>
    </message>
    <message>
        <source>
(Every student sees their own numbers; these are %1&apos;s.)</source>
        <translation>
(Jede Person sieht ihre eigenen Zahlen; dies sind die von %1.)</translation>
    </message>
    <message>
        <source>%1 of %2 answered</source>
        <translation>%1 von %2 haben geantwortet</translation>
    </message>
    <message>
        <source>Answer: %1</source>
        <translation>Antwort: %1</translation>
    </message>
    <message>
        <source>
The engine: %1</source>
        <translation>
Die Engine: %1</translation>
    </message>
    <message>
        <source>&amp;Open the First Question</source>
        <translation>&amp;Erste Frage öffnen</translation>
    </message>
    <message>
        <source>&amp;Close the Question</source>
        <translation>Frage &amp;schließen</translation>
    </message>
    <message>
        <source>Re&amp;veal the Answer</source>
        <translation>Antwort &amp;aufdecken</translation>
    </message>
    <message>
        <source>&amp;Next Question</source>
        <translation>&amp;Nächste Frage</translation>
    </message>
    <message>
        <source>&amp;Show the Scores</source>
        <translation>&amp;Punktestand zeigen</translation>
    </message>
    <message>
        <source>The Quiz Is Over</source>
        <translation>Das Quiz ist vorbei</translation>
    </message>
    <message>
        <source>The results could not be written to %1: %2</source>
        <translation>Die Ergebnisse konnten nicht nach %1 geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Export Results</source>
        <translation>Ergebnisse exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>End the class quiz? Export the results first if you want to keep them.</source>
        <translation>Klassenquiz beenden? Exportiere zuerst die Ergebnisse, wenn du sie behalten willst.</translation>
    </message>
    <message>
        <source>1 student has joined · lobby locked</source>
        <translation>1 Person ist beigetreten · Lobby gesperrt</translation>
    </message>
    <message>
        <source>%1 students have joined · lobby locked</source>
        <translation>%1 Personen sind beigetreten · Lobby gesperrt</translation>
    </message>
    <message>
        <source>Every answer is also saved, as it comes, in %1.</source>
        <translation>Jede Antwort wird außerdem sofort in %1 gespeichert.</translation>
    </message>
    <message>
        <source>Answers are not saved as they come (%1): export the results before closing.</source>
        <translation>Antworten werden nicht sofort gespeichert (%1): Exportiere die Ergebnisse vor dem Schließen.</translation>
    </message>
    <message>
        <source>End the class quiz? Every answer is kept in %1; export the results for a spreadsheet first if you want one.</source>
        <translation>Das Klassenquiz beenden? Jede Antwort bleibt in %1 erhalten; exportiere vorher die Ergebnisse, wenn du sie als Tabelle willst.</translation>
    </message>
    <message>
        <source>Class Quiz</source>
        <translation>Klassenquiz</translation>
    </message>
    <message>
        <source>The quiz&apos;s journal %1 could not be written: %2. Answers are refused from now on; export the results and start the quiz again.</source>
        <translation>Das Journal des Quiz %1 konnte nicht geschrieben werden: %2. Ab jetzt werden Antworten abgelehnt; exportiere die Ergebnisse und starte das Quiz neu.</translation>
    </message>
    <message>
        <source>&amp;Remove Selected</source>
        <translation>Auswahl &amp;entfernen</translation>
    </message>
    <message>
        <source>Re&amp;ports…</source>
        <translation>&amp;Berichte…</translation>
    </message>
    <message>
        <source>One page per student, with their numbers, their answers and the working, to print or send.</source>
        <translation>Eine Seite pro Schüler/in, mit den eigenen Zahlen, Antworten und der Rechnung, zum Drucken oder Verschicken.</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Zurück</translation>
    </message>
    <message>
        <source>The question before, as it was left</source>
        <translation>Die vorige Frage, so wie sie verlassen wurde</translation>
    </message>
    <message>
        <source>S&amp;kip</source>
        <translation>Ü&amp;berspringen</translation>
    </message>
    <message>
        <source>Close this question without revealing it and go on</source>
        <translation>Diese Frage schließen, ohne sie aufzulösen, und weitergehen</translation>
    </message>
    <message>
        <source>Names stay off the projector until you tick this.</source>
        <translation>Namen erscheinen erst auf dem Projektor, wenn du hier ein Häkchen setzt.</translation>
    </message>
    <message>
        <source>At the end, the students by score, with their names (needs names shown); otherwise how many got each score.</source>
        <translation>Am Ende die Schüler/innen nach Punkten, mit Namen (nur wenn Namen gezeigt werden); sonst, wie viele welche Punktzahl haben.</translation>
    </message>
    <message>
        <source>Show the &amp;histogram</source>
        <translation>&amp;Histogramm zeigen</translation>
    </message>
    <message>
        <source>No timer</source>
        <translation>Keine Zeitvorgabe</translation>
    </message>
    <message>
        <source>Timer: %1:%2</source>
        <translation>Zeit: %1:%2</translation>
    </message>
    <message>
        <source>Timer per question</source>
        <translation>Zeit pro Frage</translation>
    </message>
    <message>
        <source> · closes in %1:%2</source>
        <translation> · schließt in %1:%2</translation>
    </message>
    <message>
        <source>
(Every student sees their own numbers; these are one student&apos;s.)</source>
        <translation>
(Jede/r sieht eigene Zahlen; dies sind die eines Schülers.)</translation>
    </message>
    <message>
        <source>1 student</source>
        <translation>1 Schüler/in</translation>
    </message>
    <message>
        <source>%1 students</source>
        <translation>%1 Schüler/innen</translation>
    </message>
    <message>
        <source>Students</source>
        <translation>Schüler/innen</translation>
    </message>
    <message>
        <source>The reports could not be written to %1: %2</source>
        <translation>Die Berichte konnten nicht nach %1 geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Save the Reports</source>
        <translation>Berichte speichern</translation>
    </message>
    <message>
        <source>Web pages (*.html)</source>
        <translation>Webseiten (*.html)</translation>
    </message>
    <message>
        <source>Remove the %1 selected students from the quiz?</source>
        <translation>Die %1 ausgewählten Schüler/innen aus dem Quiz entfernen?</translation>
    </message>
    <message>
        <source>Show na&amp;mes</source>
        <translation>&amp;Namen zeigen</translation>
    </message>
    <message>
        <source>Show the rank&amp;ing</source>
        <translation>Ran&amp;gliste zeigen</translation>
    </message>
    <message>
        <source>%1 wrong codes tried; the code changed %2 times.</source>
        <translation>%1 falsche Codes versucht; der Code hat sich %2-mal geändert.</translation>
    </message>
    <message>
        <source>  (%1 wrong tries)</source>
        <translation>  (%1 falsche Versuche)</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ControlsPanel</name>
    <message>
        <source>equal</source>
        <translation>gleich</translation>
    </message>
    <message>
        <source>all 1 (full speed)</source>
        <translation>alle 1 (volle Geschwindigkeit)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>Aus&amp;führen</translation>
    </message>
    <message>
        <source>&amp;Workers</source>
        <translation>Wor&amp;ker</translation>
    </message>
    <message>
        <source>How many replicas train together</source>
        <translation>Wie viele Repliken gemeinsam trainieren</translation>
    </message>
    <message>
        <source>&amp;Collective</source>
        <translation>K&amp;ollektiv</translation>
    </message>
    <message>
        <source>How gradients travel between workers; none means no synchronisation</source>
        <translation>Wie Gradienten zwischen den Workern wandern; keine heißt: keine Synchronisation</translation>
    </message>
    <message>
        <source>Re&amp;duction rule</source>
        <translation>&amp;Reduktionsregel</translation>
    </message>
    <message>
        <source>How gradients are combined: sum, equal-weight mean, or mean weighted by samples</source>
        <translation>Wie Gradienten kombiniert werden: Summe, gleich gewichteter Mittelwert oder nach Beispielen gewichteter Mittelwert</translation>
    </message>
    <message>
        <source>Learning r&amp;ate</source>
        <translation>&amp;Lernrate</translation>
    </message>
    <message>
        <source>How far each update moves the weights along the combined gradient</source>
        <translation>Wie weit jedes Update die Gewichte entlang des kombinierten Gradienten verschiebt</translation>
    </message>
    <message>
        <source>Shard si&amp;zes</source>
        <translation>Shard-&amp;Größen</translation>
    </message>
    <message>
        <source>Rows of data per worker, separated by commas; empty for equal shards</source>
        <translation>Datenzeilen pro Worker, durch Kommas getrennt; leer für gleich große Shards</translation>
    </message>
    <message>
        <source>Sl&amp;owdown</source>
        <translation>&amp;Verlangsamung</translation>
    </message>
    <message>
        <source>Per worker, how many times slower it computes, e.g. 1,1,3,1</source>
        <translation>Pro Worker: wie viel mal langsamer er rechnet, z. B. 1,1,3,1</translation>
    </message>
    <message>
        <source>C&amp;lock</source>
        <translation>&amp;Uhr</translation>
    </message>
    <message>
        <source>Modelled: the cost model, the same everywhere. Measured: this computer&apos;s real time</source>
        <translation>Modelliert: das Kostenmodell, überall gleich. Gemessen: die echte Zeit dieses Computers</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>S&amp;eed</translation>
    </message>
    <message>
        <source>Seeds the data, the initial weights and every random choice</source>
        <translation>Legt die Daten, die Anfangsgewichte und jede Zufallsentscheidung fest</translation>
    </message>
    <message>
        <source>S&amp;teps</source>
        <translation>&amp;Schritte</translation>
    </message>
    <message>
        <source>Training steps to run</source>
        <translation>Auszuführende Trainingsschritte</translation>
    </message>
    <message>
        <source>A&amp;greement</source>
        <translation>Abst&amp;immung</translation>
    </message>
    <message>
        <source>How often the workers agree. bsp: every step. ssp: a worker waits only when the slowest is more than the bound behind. async: never; each gradient is applied as it arrives. local: each replica takes H steps alone, then they average</source>
        <translation>Wie oft sich die Worker abstimmen. bsp: in jedem Schritt. ssp: Ein Worker wartet nur, wenn der langsamste mehr als die Grenze zurückliegt. async: nie; jeder Gradient wird angewandt, sobald er ankommt. local: Jede Replik macht H Schritte allein, dann wird gemittelt</translation>
    </message>
    <message>
        <source>Stale&amp;ness (S)</source>
        <translation>Veral&amp;tung (S)</translation>
    </message>
    <message>
        <source>ssp: how many steps a worker may run ahead of the slowest. local: the steps each replica takes on its own between two averagings</source>
        <translation>ssp: wie viele Schritte ein Worker dem langsamsten vorauslaufen darf. local: die Schritte, die jede Replik zwischen zwei Mittelungen allein macht</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Start a new run with these settings</source>
        <translation>Einen neuen Lauf mit diesen Einstellungen starten</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <source>Average ever&amp;y</source>
        <translation>&amp;Mitteln alle</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> Schritte</translation>
    </message>
    <message>
        <source>Shard sizes</source>
        <translation>Shard-Größen</translation>
    </message>
    <message>
        <source>Slowdown</source>
        <translation>Verlangsamung</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a number (write numbers separated by commas)</source>
        <translation>%1: &apos;%2&apos; ist keine Zahl (schreib Zahlen, durch Kommas getrennt)</translation>
    </message>
    <message>
        <source>Shard sizes: each must be a whole number of rows, at least 1</source>
        <translation>Shard-Größen: Jede muss eine ganze Zahl von Zeilen sein, mindestens 1</translation>
    </message>
    <message>
        <source>workers %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>shard sizes</source>
        <translation>Shard-Größen</translation>
    </message>
    <message>
        <source>clock</source>
        <translation>Uhr</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>Seed %1</translation>
    </message>
    <message>
        <source>Waiting for a new run: %1. Press Enter or Run to start it.</source>
        <translation>Wartet auf einen neuen Lauf: %1. Drücke Enter oder Ausführen, um ihn zu starten.</translation>
    </message>
    <message>
        <source>steps %1</source>
        <translation>Schritte %1</translation>
    </message>
    <message>
        <source> KB</source>
        <translation> KB</translation>
    </message>
    <message>
        <source>one bucket</source>
        <translation>ein Bucket</translation>
    </message>
    <message>
        <source>during backward</source>
        <translation>gleichzeitig</translation>
    </message>
    <message>
        <source>after backward</source>
        <translation>danach</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>&amp;Buckets</source>
        <translation>&amp;Buckets</translation>
    </message>
    <message>
        <source>Gradients leave in buckets of at most this size, the last layers first; one bucket: the whole gradient after backward</source>
        <translation>Gradienten gehen in Buckets von höchstens dieser Größe los, die letzten Schichten zuerst; ein Bucket: der ganze Gradient nach dem Rückwärtsdurchlauf</translation>
    </message>
    <message>
        <source>When a bucket&apos;s collective starts: as soon as its layers are done, while backward goes on, or after backward</source>
        <translation>Wann die Kollektive eines Buckets beginnt: sobald seine Schichten fertig sind, während der Rückwärtsdurchlauf weiterläuft, oder nach dem Rückwärtsdurchlauf</translation>
    </message>
    <message>
        <source>Acc&amp;umulate</source>
        <translation>Aufsummiere&amp;n</translation>
    </message>
    <message>
        <source>Micro-batches each worker adds up before one reduction; the batch is then the micro-batch</source>
        <translation>Micro-Batches, die jeder Worker vor einer Reduktion aufsummiert; der Batch ist dann der Micro-Batch</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>Buckets</translation>
    </message>
    <message>
        <source>overlap</source>
        <translation>Überlappung</translation>
    </message>
    <message>
        <source>accumulation %1</source>
        <translation>Aufsummieren %1</translation>
    </message>
    <message>
        <source>Overlap &amp;mode</source>
        <translation>Überla&amp;ppung</translation>
    </message>
    <message>
        <source>ZeRO 1: optimizer</source>
        <translation>ZeRO 1: Optimierer</translation>
    </message>
    <message>
        <source>ZeRO 2: + gradients</source>
        <translation>ZeRO 2: + Gradienten</translation>
    </message>
    <message>
        <source>ZeRO 3: + parameters</source>
        <translation>ZeRO 3: + Parameter</translation>
    </message>
    <message>
        <source>none (full replicas)</source>
        <translation>keins (volle Replikate)</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>Sharding</translation>
    </message>
    <message>
        <source>What each worker keeps only its share of: ZeRO 1 the optimizer state, ZeRO 2 the gradients too, ZeRO 3 (FSDP) the parameters too, gathered layer by layer when needed</source>
        <translation>Wovon jeder Worker nur seinen Anteil behält: ZeRO 1 den Zustand des Optimierers, ZeRO 2 auch die Gradienten, ZeRO 3 (FSDP) auch die Parameter, die Schicht für Schicht gesammelt werden, wenn sie gebraucht werden</translation>
    </message>
    <message>
        <source>sharding</source>
        <translation>Sharding</translation>
    </message>
    <message>
        <source>as the model</source>
        <translation>wie das Modell</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>On the wire</source>
        <translation>Auf der Leitung</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>wire format</source>
        <translation>Format auf der Leitung</translation>
    </message>
    <message>
        <source>The numbers the model trains in: float64 (8 bytes a number), or float32 (4 bytes, fewer digits)</source>
        <translation>Die Zahlen, in denen das Modell trainiert: float64 (8 Bytes je Zahl) oder float32 (4 Bytes, weniger Stellen)</translation>
    </message>
    <message>
        <source>The format the gradients travel and are added in: float32 4 bytes a number, float16 and bfloat16 2; each sum is rounded to it, and a step whose sum overflows is skipped</source>
        <translation>Das Format, in dem die Gradienten reisen und addiert werden: float32 4 Bytes je Zahl, float16 und bfloat16 2; jede Summe wird darauf gerundet, und ein Schritt, dessen Summe überläuft, wird übersprungen</translation>
    </message>
</context>
<context>
    <name>lockstep::app::EngineController</name>
    <message>
        <source>The engine knows no action “%1”.</source>
        <translation>Die Engine kennt keine Aktion „%1“.</translation>
    </message>
    <message>
        <source>Model-parallel runs take no injected faults: every stage holds a part of the one model. Use data parallelism to study failures.</source>
        <translation>Modellparallele Läufe nehmen keine eingespeisten Fehler an: Jede Stufe hält einen Teil des einen Modells. Nutze Datenparallelität, um Ausfälle zu untersuchen.</translation>
    </message>
    <message>
        <source>There is no run yet: press Run first.</source>
        <translation>Es gibt noch keinen Lauf: Drück zuerst Ausführen.</translation>
    </message>
    <message>
        <source>There is no worker %1.</source>
        <translation>Es gibt keinen Worker %1.</translation>
    </message>
    <message>
        <source>checkpoint: cannot create a directory for this run&apos;s checkpoints in %1</source>
        <translation>Checkpoint: In %1 kann kein Verzeichnis für die Checkpoints dieses Laufs angelegt werden</translation>
    </message>
</context>
<context>
    <name>lockstep::app::LabSession</name>
    <message>
        <source>This is %1: it already happened, so it cannot be changed. Press Run to run its scenario live on threads, and change that run.</source>
        <translation>Das ist %1: Das ist schon geschehen und lässt sich daher nicht ändern. Drück Ausführen, um das Szenario live auf Threads laufen zu lassen, und ändere dann diesen Lauf.</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>Schritt %1: %2</translation>
    </message>
    <message>
        <source>At step %1: %2. Ctrl+Z undoes it.</source>
        <translation>Bei Schritt %1: %2. Strg+Z macht es rückgängig.</translation>
    </message>
    <message>
        <source>%1: “%2” only changes when a run starts, so the run starts again from step 0.</source>
        <translation>%1: „%2“ ändert sich nur beim Start eines Laufs, daher beginnt der Lauf erneut bei Schritt 0.</translation>
    </message>
    <message>
        <source>The run stopped: %1</source>
        <translation>Der Lauf wurde beendet: %1</translation>
    </message>
    <message>
        <source>The restores could not be compared: %1</source>
        <translation>Die Wiederherstellungen konnten nicht verglichen werden: %1</translation>
    </message>
    <message>
        <source>a recording of 1 process</source>
        <translation>eine Aufzeichnung von 1 Prozess</translation>
    </message>
    <message>
        <source>a recording of %1 processes</source>
        <translation>eine Aufzeichnung von %1 Prozessen</translation>
    </message>
    <message>
        <source>on 1 host (%1), measured</source>
        <translation>auf 1 Host (%1), gemessen</translation>
    </message>
    <message>
        <source>on %1 hosts (%2), measured</source>
        <translation>auf %1 Hosts (%2), gemessen</translation>
    </message>
    <message>
        <source>Playing back %1: it happened as shown, so it cannot be changed. Run starts its scenario live.</source>
        <translation>Wiedergabe von %1: Es geschah so wie gezeigt und lässt sich daher nicht ändern. Ausführen startet das Szenario live.</translation>
    </message>
    <message>
        <source>Once the run ends, its crash is rerun with both restores and drawn here.</source>
        <translation>Sobald der Lauf endet, wird sein Absturz mit beiden Wiederherstellungen erneut durchgespielt und hier gezeichnet.</translation>
    </message>
    <message>
        <source>Running %1 with %2 workers…</source>
        <translation>%1 läuft mit %2 Workern…</translation>
    </message>
    <message>
        <source>Finished %1 steps in %2 on the %3 clock; final loss %4; replicas %5</source>
        <translation>%1 Schritte in %2 auf der Uhr (%3) abgeschlossen; finaler Verlust %4; Repliken %5</translation>
    </message>
    <message>
        <source>aligned</source>
        <translation>stimmen überein</translation>
    </message>
    <message>
        <source>differ</source>
        <translation>weichen ab</translation>
    </message>
    <message>
        <source> · changed at %1 (Ctrl+Z undoes it)</source>
        <translation> · geändert bei %1 (Strg+Z macht es rückgängig)</translation>
    </message>
    <message>
        <source>Rerunning the crash with both restores…</source>
        <translation>Der Absturz wird mit beiden Wiederherstellungen erneut durchgespielt…</translation>
    </message>
    <message>
        <source>%1, %2 lanes, %3 micro-batches %4</source>
        <translation>%1, %2 Spuren, %3 Mikro-Batches %4</translation>
    </message>
    <message>
        <source>%1, %2 lanes</source>
        <translation>%1, %2 Spuren</translation>
    </message>
    <message>
        <source>%1 workers, %2</source>
        <translation>%1 Worker, %2</translation>
    </message>
    <message>
        <source>From step 0 again with the change: %1. The run before is the faint line; Ctrl+Z undoes it.</source>
        <translation>Noch einmal ab Schritt 0 mit der Änderung: %1. Der Lauf davor ist die blasse Linie; Strg+Z macht es rückgängig.</translation>
    </message>
    <message>
        <source>Undone: the run, its settings and the playhead are back as they were before the last change. Ctrl+Shift+Z redoes it.</source>
        <translation>Rückgängig gemacht: Der Lauf, seine Einstellungen und der Abspielkopf sind wieder wie vor der letzten Änderung. Strg+Umschalt+Z stellt sie wieder her.</translation>
    </message>
    <message>
        <source>Redone: the change is back. Ctrl+Z undoes it again.</source>
        <translation>Wiederhergestellt: Die Änderung ist zurück. Strg+Z macht sie wieder rückgängig.</translation>
    </message>
    <message>
        <source>Nothing to change: the run already trains this way.</source>
        <translation>Nichts zu ändern: Der Lauf trainiert bereits so.</translation>
    </message>
    <message>
        <source>Finished %1 steps in %2 on the %3 clock; final loss %4</source>
        <translation>%1 Schritte in %2 auf der Uhr (%3) abgeschlossen; finaler Verlust %4</translation>
    </message>
</context>
<context>
    <name>lockstep::app::LessonPane</name>
    <message>
        <source>Lessons</source>
        <translation>Lektionen</translation>
    </message>
    <message>
        <source>Choose a lesson…</source>
        <translation>Wähle eine Lektion…</translation>
    </message>
    <message>
        <source>Previous lesson</source>
        <translation>Vorherige Lektion</translation>
    </message>
    <message>
        <source>Next lesson</source>
        <translation>Nächste Lektion</translation>
    </message>
    <message>
        <source>Your name or student ID</source>
        <translation>Dein Name oder deine Kennung</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Choose your name, or type a new one and press Enter: each student has their own progress and their own numbers in the exercises</source>
        <translation>Wähle deinen Namen oder gib einen neuen ein und drück die Eingabetaste: Alle haben ihren eigenen Fortschritt und ihre eigenen Zahlen in den Übungen</translation>
    </message>
    <message>
        <source>&amp;Student:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>Loc&amp;k what the lesson fixes</source>
        <translation>Vorgaben der Lektion s&amp;perren</translation>
    </message>
    <message>
        <source>Grey out the controls this lesson&apos;s scenario fixes, for every student until a teacher unlocks them</source>
        <translation>Graut die Regler aus, die das Szenario dieser Lektion festlegt, für alle, bis eine Lehrkraft sie freigibt</translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation>Antwort zeigen</translation>
    </message>
    <message>
        <source>The current exercise&apos;s answer and reasoning, for this student</source>
        <translation>Antwort und Begründung der aktuellen Übung für diese Person</translation>
    </message>
    <message>
        <source>Reset this student…</source>
        <translation>Diese Person zurücksetzen…</translation>
    </message>
    <message>
        <source>Class progress as CSV…</source>
        <translation>Klassenfortschritt als CSV…</translation>
    </message>
    <message>
        <source>Print worksheets…</source>
        <translation>Arbeitsblätter drucken…</translation>
    </message>
    <message>
        <source>A page per student with their own numbers, and an answer key, for the current exercise&apos;s quiz bank</source>
        <translation>Eine Seite pro Person mit ihren eigenen Zahlen und ein Lösungsblatt, für den Fragenkatalog der aktuellen Übung</translation>
    </message>
    <message>
        <source>Leave teacher mode</source>
        <translation>Lehrermodus verlassen</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>Lehrkraft</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lektion</translation>
    </message>
    <message>
        <source>Exercise</source>
        <translation>Übung</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Deine Antwort</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Run it</source>
        <translation>Ausprobieren</translation>
    </message>
    <message>
        <source>Predict first, then run the scenario to see the engine&apos;s result</source>
        <translation>Sag zuerst das Ergebnis voraus, dann führ das Szenario aus und sieh dir das Ergebnis der Engine an</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Rückmeldung</translation>
    </message>
    <message>
        <source>Exercises</source>
        <translation>Übungen</translation>
    </message>
    <message>
        <source>Answers to choose from</source>
        <translation>Antworten zur Auswahl</translation>
    </message>
    <message>
        <source>Reset this student</source>
        <translation>Diese Person zurücksetzen</translation>
    </message>
    <message>
        <source>Forget every lesson %1 visited and every answer %1 gave?</source>
        <translation>Alle Lektionen, die %1 besucht hat, und alle Antworten, die %1 gegeben hat, vergessen?</translation>
    </message>
    <message>
        <source> · your own</source>
        <translation> · eigene</translation>
    </message>
    <message>
        <source>no lesson &apos;%1&apos; (known: %2)</source>
        <translation>keine Lektion &apos;%1&apos; (bekannt: %2)</translation>
    </message>
    <message>
        <source>“%1” is not a lab action; open it in a web browser.</source>
        <translation>„%1“ ist keine Laboraktion; öffne es in einem Webbrowser.</translation>
    </message>
    <message>
        <source>There is no quiz bank %1.</source>
        <translation>Es gibt keinen Fragenkatalog %1.</translation>
    </message>
    <message>
        <source>There is no question %1/%2.</source>
        <translation>Es gibt keine Frage %1/%2.</translation>
    </message>
    <message>
        <source>This exercise (%1) cannot be found.</source>
        <translation>Diese Übung (%1) wurde nicht gefunden.</translation>
    </message>
    <message>
        <source>Solved (score %1). You may answer again.</source>
        <translation>Gelöst (Punktzahl %1). Du darfst noch einmal antworten.</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) so far.</source>
        <translation>
            <numerusform>Bisher %n Versuch.</numerusform>
            <numerusform>Bisher %n Versuche.</numerusform>
        </translation>
    </message>
    <message>
        <source>After %1 attempts, here is the reasoning: %2 The answer is %3.</source>
        <translation>Nach %1 Versuchen hier die Begründung: %2 Die Antwort ist %3.</translation>
    </message>
    <message>
        <source>Now press Run it and compare with the engine.</source>
        <translation>Drück jetzt Ausprobieren und vergleiche mit der Engine.</translation>
    </message>
    <message>
        <source>Hint %1: %2</source>
        <translation>Hinweis %1: %2</translation>
    </message>
    <message>
        <source>Working as %1: your own progress and your own numbers.</source>
        <translation>Du arbeitest als %1: dein eigener Fortschritt und deine eigenen Zahlen.</translation>
    </message>
    <message>
        <source>For %1 the answer is %2. %3</source>
        <translation>Für %1 lautet die Antwort %2. %3</translation>
    </message>
    <message>
        <source>this student</source>
        <translation>diese Person</translation>
    </message>
    <message>
        <source>Class progress as CSV</source>
        <translation>Klassenfortschritt als CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>%1: cannot write the class&apos;s progress</source>
        <translation>%1: Der Fortschritt der Klasse kann nicht geschrieben werden</translation>
    </message>
    <message numerus="yes">
        <source>The progress of %n student(s) written to %1</source>
        <translation>
            <numerusform>Fortschritt von %n Person nach %1 geschrieben</numerusform>
            <numerusform>Fortschritt von %n Personen nach %1 geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a lesson with exercises to print its quiz bank.</source>
        <translation>Öffne eine Lektion mit Übungen, um ihren Fragenkatalog zu drucken.</translation>
    </message>
    <message>
        <source>Print worksheets</source>
        <translation>Arbeitsblätter drucken</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF-Dateien (*.pdf)</translation>
    </message>
    <message numerus="yes">
        <source>Worksheets for %n student(s) in %1, the answers in %2</source>
        <translation>
            <numerusform>Arbeitsblätter für %n Person in %1, die Lösungen in %2</numerusform>
            <numerusform>Arbeitsblätter für %n Personen in %1, die Lösungen in %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Type a number: 2.5, 2,5 and 5/2 all work.</source>
        <translation>Gib eine Zahl ein: 2.5, 2,5 und 5/2 gehen alle.</translation>
    </message>
    <message>
        <source>Choose one answer.</source>
        <translation>Wähle eine Antwort.</translation>
    </message>
    <message>
        <source>Tick every right answer.</source>
        <translation>Kreuze jede richtige Antwort an.</translation>
    </message>
    <message>
        <source>Type the letters in order, e.g. c, a, b, …</source>
        <translation>Gib die Buchstaben in der richtigen Reihenfolge ein, z. B. c, a, b, …</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) of the quiz under the page; the first is shown, the answer field is ready.</source>
        <translation>
            <numerusform>%n Frage des Quiz unter der Seite; sie ist gezeigt, das Antwortfeld ist bereit.</numerusform>
            <numerusform>%n Fragen des Quiz unter der Seite; die erste ist gezeigt, das Antwortfeld ist bereit.</numerusform>
        </translation>
    </message>
    <message>
        <source>The exercise is under the page; the answer field is ready.</source>
        <translation>Die Aufgabe steht unter der Seite; das Antwortfeld ist bereit.</translation>
    </message>
    <message>
        <source>The worked-example calculator is open: change a figure and see the time and the speedup.</source>
        <translation>Der Rechner zum Rechenbeispiel ist offen: Ändere eine Zahl und sieh dir Zeit und Speedup an.</translation>
    </message>
    <message>
        <source>The study trains each model of the lesson on the same data.</source>
        <translation>Die Studie trainiert jedes Modell der Lektion mit denselben Daten.</translation>
    </message>
</context>
<context>
    <name>lockstep::app::MainWindow</name>
    <message>
        <source>There is no worker %1 in this scenario.</source>
        <translation>In diesem Szenario gibt es keinen Worker %1.</translation>
    </message>
    <message>
        <source>restores bring back the whole state</source>
        <translation>Wiederherstellungen holen den ganzen Zustand zurück</translation>
    </message>
    <message>
        <source>restores bring back the weights alone</source>
        <translation>Wiederherstellungen holen nur die Gewichte zurück</translation>
    </message>
    <message>
        <source>A pipeline of %1 stages, %2 micro-batches per batch (%3).</source>
        <translation>Eine Pipeline aus %1 Stufen, %2 Mikro-Batches pro Batch (%3).</translation>
    </message>
    <message>
        <source>Not possible</source>
        <translation>Nicht möglich</translation>
    </message>
    <message>
        <source>No comparison: %1</source>
        <translation>Kein Vergleich: %1</translation>
    </message>
    <message>
        <source>Lockstep</source>
        <translation>Lockstep</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lessons that could not be loaded&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Lektionen, die nicht geladen werden konnten&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lektion</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <source>settings changed</source>
        <translation>Einstellungen geändert</translation>
    </message>
    <message>
        <source>Cannot run</source>
        <translation>Ausführen nicht möglich</translation>
    </message>
    <message>
        <source>before the change</source>
        <translation>vor der Änderung</translation>
    </message>
    <message>
        <source>%1 · %2 s</source>
        <translation>%1 · %2 s</translation>
    </message>
    <message>
        <source>Compared on the modelled clock, the whole run each: %1.</source>
        <translation>Verglichen auf der modellierten Uhr, jeweils der ganze Lauf: %1.</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>Lauf fehlgeschlagen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>&amp;Abspielen</translation>
    </message>
    <message>
        <source>speed %1×</source>
        <translation>Tempo %1×</translation>
    </message>
    <message>
        <source>Lockstep — %1</source>
        <translation>Lockstep — %1</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>Szenario kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>This scenario cannot be used:

%1

The previous scenario is still loaded.</source>
        <translation>Dieses Szenario kann nicht verwendet werden:

%1

Das vorherige Szenario ist weiterhin geladen.</translation>
    </message>
    <message>
        <source>Lockstep — %1: %2</source>
        <translation>Lockstep — %1: %2</translation>
    </message>
    <message>
        <source>Cannot open the recording</source>
        <translation>Aufzeichnung kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>This file cannot be played back:

%1</source>
        <translation>Diese Datei kann nicht abgespielt werden:

%1</translation>
    </message>
    <message>
        <source>Worked example</source>
        <translation>Rechenbeispiel</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Studie</translation>
    </message>
    <message numerus="yes">
        <source>%n of your own lesson(s) from %1, after the shipped ones.</source>
        <translation>
            <numerusform>%n eigene Lektion aus %1, nach den mitgelieferten.</numerusform>
            <numerusform>%n eigene Lektionen aus %1, nach den mitgelieferten.</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out: %1</source>
        <translation>Ausgelassen: %1</translation>
    </message>
    <message>
        <source>Your Own Lessons Folder</source>
        <translation>Ordner für eigene Lektionen</translation>
    </message>
    <message>
        <source>About Lockstep</source>
        <translation>Über Lockstep</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lockstep %1&lt;/h3&gt;&lt;p&gt;A lab that shows why many computers training one model need coordination: real training, split across workers, and what it costs.&lt;/p&gt;&lt;p&gt;Lessons, scenarios and quiz banks: %2&lt;br&gt;Your own lessons: %3&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Lockstep %1&lt;/h3&gt;&lt;p&gt;Ein Labor, das zeigt, warum viele Computer, die gemeinsam ein Modell trainieren, Koordination brauchen: echtes Training, aufgeteilt auf Worker, und was es kostet.&lt;/p&gt;&lt;p&gt;Lektionen, Szenarien und Fragenkataloge: %2&lt;br&gt;Eigene Lektionen: %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>nicht gefunden</translation>
    </message>
    <message>
        <source>Set the teacher&apos;s PIN</source>
        <translation>PIN der Lehrkraft festlegen</translation>
    </message>
    <message>
        <source>Choose a PIN of 4 to 12 digits. It protects teacher mode: the lock, the answers and resetting a student.</source>
        <translation>Wähle eine PIN mit 4 bis 12 Ziffern. Sie schützt den Lehrermodus: die Sperre, die Antworten und das Zurücksetzen von Lernenden.</translation>
    </message>
    <message>
        <source>The same PIN again:</source>
        <translation>Dieselbe PIN noch einmal:</translation>
    </message>
    <message>
        <source>PIN not set</source>
        <translation>PIN nicht festgelegt</translation>
    </message>
    <message>
        <source>The two PINs differ.</source>
        <translation>Die beiden PINs sind verschieden.</translation>
    </message>
    <message>
        <source>A PIN has 4 to 12 digits.</source>
        <translation>Eine PIN hat 4 bis 12 Ziffern.</translation>
    </message>
    <message>
        <source>Teacher mode</source>
        <translation>Lehrermodus</translation>
    </message>
    <message>
        <source>The teacher&apos;s PIN:</source>
        <translation>PIN der Lehrkraft:</translation>
    </message>
    <message>
        <source>That is not the teacher&apos;s PIN.</source>
        <translation>Das ist nicht die PIN der Lehrkraft.</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation>Szenario ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recorded Run…</source>
        <translation>&amp;Aufgezeichneten Lauf öffnen…</translation>
    </message>
    <message>
        <source>&amp;Save Scenario…</source>
        <translation>Szenario &amp;speichern…</translation>
    </message>
    <message>
        <source>Your Own &amp;Lessons Folder…</source>
        <translation>Ordner für eigene &amp;Lektionen…</translation>
    </message>
    <message>
        <source>Export View as &amp;PNG…</source>
        <translation>Ansicht als &amp;PNG exportieren…</translation>
    </message>
    <message>
        <source>Export View as S&amp;VG…</source>
        <translation>Ansicht als S&amp;VG exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;Metrics as CSV…</source>
        <translation>&amp;Metriken als CSV exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;Trace (Chrome JSON)…</source>
        <translation>&amp;Trace exportieren (Chrome JSON)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>&amp;Wiedergabe</translation>
    </message>
    <message>
        <source>&amp;Next Event</source>
        <translation>&amp;Nächstes Ereignis</translation>
    </message>
    <message>
        <source>Pre&amp;vious Event</source>
        <translation>&amp;Vorheriges Ereignis</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Faster</source>
        <translation>&amp;Schneller</translation>
    </message>
    <message>
        <source>&amp;Slower</source>
        <translation>&amp;Langsamer</translation>
    </message>
    <message>
        <source>Run &amp;Again</source>
        <translation>&amp;Erneut ausführen</translation>
    </message>
    <message>
        <source>&amp;Compare Ways of Agreeing</source>
        <translation>Abstimmungsarten ver&amp;gleichen</translation>
    </message>
    <message>
        <source>Ed&amp;it</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>&amp;Lesson Pane</source>
        <translation>&amp;Lektionsbereich</translation>
    </message>
    <message>
        <source>&amp;Controls Pane</source>
        <translation>&amp;Steuerbereich</translation>
    </message>
    <message>
        <source>&amp;Next Pane</source>
        <translation>&amp;Nächster Bereich</translation>
    </message>
    <message>
        <source>&amp;Teacher Mode…</source>
        <translation>Lehrer&amp;modus…</translation>
    </message>
    <message>
        <source>Class &amp;Quiz</source>
        <translation>Klassen&amp;quiz</translation>
    </message>
    <message>
        <source>&amp;Start a Class Quiz…</source>
        <translation>Klassenquiz &amp;starten…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>&amp;Tastenkürzel…</translation>
    </message>
    <message>
        <source>&amp;About Lockstep</source>
        <translation>Ü&amp;ber Lockstep</translation>
    </message>
    <message>
        <source>Lesson Links</source>
        <translation>Lektionslinks</translation>
    </message>
    <message>
        <source>The lesson page&apos;s links</source>
        <translation>Die Links der Lektionsseite</translation>
    </message>
    <message>
        <source>Playback</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>speed 1×</source>
        <translation>Tempo 1×</translation>
    </message>
    <message>
        <source>Playhead</source>
        <translation>Abspielkopf</translation>
    </message>
    <message>
        <source>Drag, or use the arrow keys, to move through the run</source>
        <translation>Zieh oder benutze die Pfeiltasten, um dich durch den Lauf zu bewegen</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>Szenario öffnen</translation>
    </message>
    <message>
        <source>Scenarios (*.json)</source>
        <translation>Szenarien (*.json)</translation>
    </message>
    <message>
        <source>Open Recorded Run</source>
        <translation>Aufgezeichneten Lauf öffnen</translation>
    </message>
    <message>
        <source>Traces of runs over processes (*.json)</source>
        <translation>Traces von Läufen über Prozesse (*.json)</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>Szenario speichern</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>Speichern nicht möglich</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Export View</source>
        <translation>Ansicht exportieren</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>Export nicht möglich</translation>
    </message>
    <message>
        <source>Export Metrics</source>
        <translation>Metriken exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export Trace</source>
        <translation>Trace exportieren</translation>
    </message>
    <message>
        <source>Chrome trace (*.json)</source>
        <translation>Chrome-Trace (*.json)</translation>
    </message>
    <message>
        <source>The question&apos;s run cannot be replayed: %1</source>
        <translation>Der Lauf zu dieser Frage kann nicht nachgespielt werden: %1</translation>
    </message>
    <message>
        <source>Class Quiz</source>
        <translation>Klassenquiz</translation>
    </message>
    <message>
        <source>The class quiz could not start: %1</source>
        <translation>Das Klassenquiz konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>Sp&amp;rache</translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation>&amp;Hoher Kontrast</translation>
    </message>
    <message>
        <source>High contrast: on</source>
        <translation>Hoher Kontrast: an</translation>
    </message>
    <message>
        <source>High contrast: off</source>
        <translation>Hoher Kontrast: aus</translation>
    </message>
    <message>
        <source>Audio &amp;Description</source>
        <translation>&amp;Audiobeschreibung</translation>
    </message>
    <message>
        <source>Audio description of the run</source>
        <translation>Audiobeschreibung des Laufs</translation>
    </message>
    <message>
        <source>Audio description on: each step is told as the playhead passes it.</source>
        <translation>Audiobeschreibung an: Jeder Schritt wird angesagt, sobald der Abspielkopf ihn erreicht.</translation>
    </message>
    <message>
        <source>The run starts again from step 0.</source>
        <translation>Der Lauf beginnt noch einmal bei Schritt 0.</translation>
    </message>
    <message>
        <source>the page&apos;s settings</source>
        <translation>die Einstellungen der Seite</translation>
    </message>
    <message>
        <source>From step 0 again, with a checkpoint after every %1 steps.</source>
        <translation>Noch einmal ab Schritt 0, mit einem Checkpoint nach je %1 Schritten.</translation>
    </message>
    <message>
        <source>From step 0 again: worker %1 will crash (%2) at step %3. Watch the others wait for its heartbeat, then recover.</source>
        <translation>Noch einmal ab Schritt 0: Worker %1 stürzt in Schritt %3 ab (%2). Sieh zu, wie die anderen auf seinen Herzschlag warten und sich dann erholen.</translation>
    </message>
    <message>
        <source>Text size %1 %</source>
        <translation>Textgröße %1 %</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Te&amp;xt Size</source>
        <translation>Te&amp;xtgröße</translation>
    </message>
    <message>
        <source>&amp;Larger</source>
        <translation>&amp;Größer</translation>
    </message>
    <message>
        <source>&amp;Smaller</source>
        <translation>&amp;Kleiner</translation>
    </message>
    <message>
        <source>&amp;Normal</source>
        <translation>&amp;Normal</translation>
    </message>
    <message>
        <source>t = %1 s of %2 s · step %3</source>
        <translation>t = %1 s von %2 s · Schritt %3</translation>
    </message>
    <message>
        <source>Playing from step %1.</source>
        <translation>Wiedergabe ab Schritt %1.</translation>
    </message>
    <message>
        <source>Paused at step %1.</source>
        <translation>Angehalten bei Schritt %1.</translation>
    </message>
    <message>
        <source>At the next event: step %1, t = %2 s.</source>
        <translation>Beim nächsten Ereignis: Schritt %1, t = %2 s.</translation>
    </message>
    <message>
        <source>Back at the start of the run.</source>
        <translation>Zurück am Anfang des Laufs.</translation>
    </message>
    <message>
        <source>In front: %1.</source>
        <translation>Im Vordergrund: %1.</translation>
    </message>
    <message>
        <source>the timeline</source>
        <translation>die Zeitleiste</translation>
    </message>
    <message>
        <source>The Memory view has no unsharded outline: %1</source>
        <translation>Die Speicher-Ansicht hat keinen Umriss ohne Sharding: %1</translation>
    </message>
    <message>
        <source>Resume a Class Quiz</source>
        <translation>Klassenquiz fortsetzen</translation>
    </message>
    <message>
        <source>Class quiz journals (*.journal)</source>
        <translation>Journale von Klassenquiz (*.journal)</translation>
    </message>
    <message>
        <source>&amp;Resume a Class Quiz…</source>
        <translation>Klassenquiz &amp;fortsetzen…</translation>
    </message>
    <message>
        <source>%1 are compared on data parallelism; this run is a pipeline or tensor-parallel run.</source>
        <translation>%1 werden bei Datenparallelität verglichen; dieser Lauf ist ein Pipeline- oder tensorparalleler Lauf.</translation>
    </message>
    <message>
        <source>Ways of agreeing</source>
        <translation>Arten der Abstimmung</translation>
    </message>
    <message>
        <source>Number formats</source>
        <translation>Zahlenformate</translation>
    </message>
    <message>
        <source>%1: training the scenario once for each…</source>
        <translation>%1: Das Szenario wird für jedes einmal trainiert…</translation>
    </message>
    <message>
        <source>Compare Number For&amp;mats</source>
        <translation>&amp;Zahlenformate vergleichen</translation>
    </message>
    <message>
        <source>%1 %2 s, final loss %3, %4 bytes a step</source>
        <translation>%1 %2 s, finaler Verlust %3, %4 Bytes pro Schritt</translation>
    </message>
    <message>
        <source> · %1 skipped</source>
        <translation> · %1 übersprungen</translation>
    </message>
    <message>
        <source>, 1 step skipped</source>
        <translation>, 1 Schritt übersprungen</translation>
    </message>
    <message>
        <source>, %1 steps skipped</source>
        <translation>, %1 Schritte übersprungen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>lockstep::app::RestoreComparer</name>
    <message>
        <source>No restores to compare: %1. Crash a worker (click it in the cluster view) in a run that saves checkpoints to see both.</source>
        <translation>Keine Wiederherstellungen zum Vergleichen: %1. Lass in einem Lauf, der Checkpoints speichert, einen Worker abstürzen (klick ihn in der Cluster-Ansicht an), um beide zu sehen.</translation>
    </message>
    <message>
        <source>compare restores: cannot create a scratch directory in %1</source>
        <translation>Wiederherstellungen vergleichen: In %1 kann kein temporäres Verzeichnis angelegt werden</translation>
    </message>
</context>
<context>
    <name>lockstep::app::RunComparer</name>
    <message>
        <source>ssp, S = %1</source>
        <translation>ssp, S = %1</translation>
    </message>
    <message>
        <source>local SGD, every %1 steps</source>
        <translation>lokales SGD, alle %1 Schritte</translation>
    </message>
    <message>
        <source>async, lr / τ</source>
        <translation>async, lr / τ</translation>
    </message>
    <message>
        <source>%1 model</source>
        <translation>%1-Modell</translation>
    </message>
    <message>
        <source>%1 on the wire</source>
        <translation>%1 auf der Leitung</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>&lt;p&gt;Space, the arrows, R, [ and ] drive the playback wherever the focus is, unless the focused control uses the key itself: then Space presses the button or toggles the box, and arrows move in the list or field. Click a view, or press F6, to give the keys back to the playback.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Leertaste, die Pfeiltasten, R, [ und ] steuern die Wiedergabe, wo auch immer der Fokus gerade ist, außer das fokussierte Element verwendet die Taste selbst: Dann drückt die Leertaste die Schaltfläche oder schaltet das Kästchen um, und die Pfeiltasten bewegen sich in der Liste oder im Feld. Klick eine Ansicht an oder drück F6, um die Tasten wieder der Wiedergabe zu geben.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>%1 menu</source>
        <translation>Menü %1</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Cluster view</source>
        <translation>Cluster-Ansicht</translation>
    </message>
    <message>
        <source>Timeline view</source>
        <translation>Zeitleisten-Ansicht</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>Überall</translation>
    </message>
    <message>
        <source>Choose a worker</source>
        <translation>Einen Worker wählen</translation>
    </message>
    <message>
        <source>Open the chosen worker&apos;s faults (the menu a click opens)</source>
        <translation>Die Fehler des gewählten Workers öffnen (das Menü, das ein Klick öffnet)</translation>
    </message>
    <message>
        <source>Pan along the run</source>
        <translation>Entlang des Laufs verschieben</translation>
    </message>
    <message>
        <source>Zoom in, zoom out</source>
        <translation>Hineinzoomen, herauszoomen</translation>
    </message>
    <message>
        <source>Show the whole run</source>
        <translation>Den ganzen Lauf zeigen</translation>
    </message>
    <message>
        <source>Move to the next or previous control, link or view</source>
        <translation>Zum nächsten oder vorherigen Bedienelement, Link oder zur nächsten bzw. vorherigen Ansicht</translation>
    </message>
    <message>
        <source>Press the focused button, toggle the focused check box, follow the focused link</source>
        <translation>Fokussierte Schaltfläche drücken, fokussiertes Kästchen umschalten, fokussiertem Link folgen</translation>
    </message>
    <message>
        <source>Alt+underlined letter</source>
        <translation>Alt+unterstrichener Buchstabe</translation>
    </message>
    <message>
        <source>Go to that menu, control or button</source>
        <translation>Zu diesem Menü, Bedienelement oder dieser Schaltfläche gehen</translation>
    </message>
    <message>
        <source>Next or previous tab of the views, with the focus in them</source>
        <translation>Nächster oder vorheriger Reiter der Ansichten, wenn der Fokus dort ist</translation>
    </message>
</context>
<context>
    <name>lockstep::app::StudyPanel</name>
    <message>
        <source>Run the study</source>
        <translation>Studie ausführen</translation>
    </message>
    <message>
        <source>Trains every model of the study on the same data.</source>
        <translation>Trainiert jedes Modell der Studie auf denselben Daten.</translation>
    </message>
    <message>
        <source>Loss against modelled energy</source>
        <translation>Verlust gegen modellierte Energie</translation>
    </message>
    <message>
        <source>Loss against compute</source>
        <translation>Verlust gegen Rechenaufwand</translation>
    </message>
    <message>
        <source>Horizontal axis</source>
        <translation>Horizontale Achse</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>compute (s)</source>
        <translation>Rechenzeit (s)</translation>
    </message>
    <message>
        <source>energy (kJ)</source>
        <translation>Energie (kJ)</translation>
    </message>
    <message>
        <source>Training %1 models…</source>
        <translation>%1 Modelle werden trainiert…</translation>
    </message>
    <message>
        <source>The study stopped: %1</source>
        <translation>Die Studie wurde beendet: %1</translation>
    </message>
    <message>
        <source>modelled energy (kJ)</source>
        <translation>modellierte Energie (kJ)</translation>
    </message>
    <message>
        <source>compute, all workers (s)</source>
        <translation>Rechenzeit, alle Worker (s)</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>Trainingsverlust</translation>
    </message>
    <message>
        <source>held-out loss</source>
        <translation>Verlust auf neuen Daten</translation>
    </message>
    <message>
        <source>Energy is modelled per worker: computing %1 W, communicating %2 W, waiting %3 W, writing checkpoints %4 W, idle %5 W.</source>
        <translation>Die Energie ist pro Worker modelliert: Rechnen %1 W, Kommunizieren %2 W, Warten %3 W, Checkpoints schreiben %4 W, untätig %5 W.</translation>
    </message>
    <message>
        <source>Every model trained on the same data with the same workers. Training loss and accuracy: the last step&apos;s batch, first seed. Held-out loss: on fresh examples no model trained on, mean ± sd over the seeds (%1).</source>
        <translation>Jedes Modell wurde mit denselben Daten und denselben Workern trainiert. Trainingsverlust und Genauigkeit: der Batch des letzten Schritts, erster Seed. Verlust auf neuen Daten: mit frischen Beispielen, auf denen kein Modell trainiert hat, Mittelwert ± Standardabweichung über die Seeds (%1).</translation>
    </message>
</context>
<context>
    <name>lockstep::app::WorkedExamplePanel</name>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Time on one worker</source>
        <translation>Zeit auf einem Worker</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Communication in all</source>
        <translation>Kommunikation insgesamt</translation>
    </message>
    <message>
        <source>Communication time</source>
        <translation>Kommunikationszeit</translation>
    </message>
    <message>
        <source>Calculator result</source>
        <translation>Ergebnis des Rechners</translation>
    </message>
    <message>
        <source>ideal</source>
        <translation>ideal</translation>
    </message>
    <message>
        <source>with communication</source>
        <translation>mit Kommunikation</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>Speedup</translation>
    </message>
    <message>
        <source>Show it in the lab</source>
        <translation>Im Labor zeigen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 s&lt;/b&gt; on %2 workers (%3 s of compute each + %4 s of communication): a speedup of &lt;b&gt;%5&lt;/b&gt; against %6 s on one worker, ideal %2; efficiency %7%.</source>
        <translation>&lt;b&gt;%1 s&lt;/b&gt; auf %2 Workern (%3 s Rechenzeit je Worker + %4 s Kommunikation): ein Speedup von &lt;b&gt;%5&lt;/b&gt; gegenüber %6 s auf einem Worker, ideal %2; Effizienz %7%.</translation>
    </message>
</context>
<context>
    <name>lockstep::views::CheckpointView</name>
    <message>
        <source>Checkpoints view</source>
        <translation>Checkpoints-Ansicht</translation>
    </message>
    <message>
        <source>Each checkpoint: every worker writes its file, syncs it, renames it; then the MANIFEST commits it.</source>
        <translation>Jeder Checkpoint: Jeder Worker schreibt seine Datei, synchronisiert sie und benennt sie um; dann schreibt das MANIFEST den Checkpoint fest.</translation>
    </message>
    <message>
        <source>Worker %1 crashed. Nobody has noticed yet.</source>
        <translation>Worker %1 ist abgestürzt. Noch hat es niemand bemerkt.</translation>
    </message>
    <message>
        <source>Worker %1 declared dead by the heartbeat; a replacement is starting.</source>
        <translation>Worker %1 wurde per Heartbeat für tot erklärt; ein Ersatz startet.</translation>
    </message>
    <message>
        <source>Recovery scans newest first: verifying %1…</source>
        <translation>Die Wiederherstellung prüft den neuesten zuerst: %1 wird geprüft…</translation>
    </message>
    <message>
        <source>Scan done.</source>
        <translation>Suche abgeschlossen.</translation>
    </message>
    <message>
        <source>Loading %1: %2 of %3 read</source>
        <translation>%1 wird geladen: %2 von %3 gelesen</translation>
    </message>
    <message>
        <source>Resumed from %1 after worker %2&apos;s crash.</source>
        <translation>Nach dem Absturz von Worker %2 ab %1 fortgesetzt.</translation>
    </message>
    <message>
        <source>Resumed after worker %1&apos;s crash.</source>
        <translation>Nach dem Absturz von Worker %1 fortgesetzt.</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>Noch kein Lauf.</translation>
    </message>
    <message>
        <source>worker %1 %2</source>
        <translation>Worker %1 %2</translation>
    </message>
    <message>
        <source>%1 %2 (%3; manifest %4)</source>
        <translation>%1 %2 (%3; Manifest %4)</translation>
    </message>
    <message>
        <source>no checkpoint yet</source>
        <translation>noch kein Checkpoint</translation>
    </message>
    <message>
        <source> Full restore: %1 Weights only: %2</source>
        <translation> Vollständige Wiederherstellung: %1 Nur Gewichte: %2</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>MANIFEST of %1: %2</source>
        <translation>MANIFEST von %1: %2</translation>
    </message>
    <message>
        <source>being written under a temporary name (%1 so far)</source>
        <translation>wird unter einem temporären Namen geschrieben (bisher %1)</translation>
    </message>
    <message>
        <source>its bytes fsynced, still under the temporary name</source>
        <translation>Bytes per fsync gesichert, noch unter dem temporären Namen</translation>
    </message>
    <message>
        <source>renamed into place and the directory fsynced; waiting for the MANIFEST</source>
        <translation>an seinen Platz umbenannt und das Verzeichnis per fsync gesichert; wartet auf das MANIFEST</translation>
    </message>
    <message>
        <source>named by the committed MANIFEST (%1)</source>
        <translation>im festgeschriebenen MANIFEST genannt (%1)</translation>
    </message>
    <message>
        <source>its writer crashed (%1 written)</source>
        <translation>sein Schreiber ist abgestürzt (%1 geschrieben)</translation>
    </message>
    <message>
        <source>truncated on disk after the commit</source>
        <translation>nach dem Festschreiben auf der Festplatte abgeschnitten</translation>
    </message>
    <message>
        <source>a bit flipped on disk after the commit</source>
        <translation>nach dem Festschreiben ist auf der Festplatte ein Bit gekippt</translation>
    </message>
    <message>
        <source>never written: the crash came before its turn</source>
        <translation>nie geschrieben: Der Absturz kam, bevor die Datei an der Reihe war</translation>
    </message>
    <message>
        <source>%1 of %2: %3: %4</source>
        <translation>%1 von %2: %3: %4</translation>
    </message>
    <message>
        <source>Checkpoints on disk</source>
        <translation>Checkpoints auf der Festplatte</translation>
    </message>
    <message numerus="yes">
        <source>%n older pruned by the keep policy or not shown</source>
        <translation>
            <numerusform>%n älterer von der Aufbewahrungsregel entfernt oder nicht gezeigt</numerusform>
            <numerusform>%n ältere von der Aufbewahrungsregel entfernt oder nicht gezeigt</numerusform>
        </translation>
    </message>
    <message>
        <source>newest %1 shown</source>
        <translation>die neuesten %1 gezeigt</translation>
    </message>
    <message>
        <source>verifying…</source>
        <translation>wird geprüft…</translation>
    </message>
    <message>
        <source>✓ loaded</source>
        <translation>✓ geladen</translation>
    </message>
    <message>
        <source>✗ skipped</source>
        <translation>✗ übersprungen</translation>
    </message>
    <message>
        <source>No checkpoint written yet.
Scenarios with &quot;checkpoint&quot; save one every few steps.</source>
        <translation>Noch kein Checkpoint geschrieben.
Szenarien mit &quot;checkpoint&quot; speichern alle paar Schritte einen.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>reading %1 back</source>
        <translation>%1 wird zurückgelesen</translation>
    </message>
    <message>
        <source>%1% · %2 of %3</source>
        <translation>%1% · %2 von %3</translation>
    </message>
    <message>
        <source>Full restore</source>
        <translation>Vollständige Wiederherstellung</translation>
    </message>
    <message>
        <source>Parameters, optimizer momentum and each worker&apos;s place in its data come back: the run goes on as if it had never stopped.</source>
        <translation>Parameter, Momentum des Optimierers und die Position jedes Workers in seinen Daten kommen zurück: Der Lauf geht weiter, als hätte er nie angehalten.</translation>
    </message>
    <message>
        <source>Parameters, optimizer momentum and data positions come back.</source>
        <translation>Parameter, Momentum des Optimierers und Datenpositionen kommen zurück.</translation>
    </message>
    <message>
        <source>Weights only</source>
        <translation>Nur Gewichte</translation>
    </message>
    <message>
        <source>Only the parameters come back; momentum restarts at zero and the data from its start, so the continuation differs.</source>
        <translation>Nur die Parameter kommen zurück; das Momentum beginnt wieder bei null und die Daten von vorn, daher verläuft die Fortsetzung anders.</translation>
    </message>
    <message>
        <source>Only the parameters: momentum starts at zero, the data from its start.</source>
        <translation>Nur die Parameter: Das Momentum beginnt bei null, die Daten von vorn.</translation>
    </message>
    <message>
        <source>%1 (this run)</source>
        <translation>%1 (dieser Lauf)</translation>
    </message>
</context>
<context>
    <name>lockstep::views::ClusterView</name>
    <message>
        <source>Faults for worker %1</source>
        <translation>Fehler für Worker %1</translation>
    </message>
    <message>
        <source>Worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>Worker %1: %2
first gradient entry %3
click for faults</source>
        <translation>Worker %1: %2
erster Gradienteneintrag %3
klicken für Fehler</translation>
    </message>
    <message>
        <source>Cluster view</source>
        <translation>Cluster-Ansicht</translation>
    </message>
    <message>
        <source>No run loaded</source>
        <translation>Kein Lauf geladen</translation>
    </message>
    <message>
        <source>worker %1 %2</source>
        <translation>Worker %1 %2</translation>
    </message>
    <message>
        <source>workers %1 %2</source>
        <translation>Worker %1 %2</translation>
    </message>
    <message>
        <source>%1 workers %2</source>
        <translation>%1 Worker %2</translation>
    </message>
    <message>
        <source>no step finished yet</source>
        <translation>noch kein Schritt abgeschlossen</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>Repliken stimmen überein</translation>
    </message>
    <message>
        <source>replicas differ; distance from their mean: %1</source>
        <translation>Repliken weichen ab; Abstand von ihrem Mittelwert: %1</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>Repliken weichen ab</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>%1 on the wire</source>
        <translation>%1 auf der Leitung</translation>
    </message>
</context>
<context>
    <name>lockstep::views::ComparisonView</name>
    <message>
        <source>Comparison view</source>
        <translation>Vergleichsansicht</translation>
    </message>
    <message>
        <source>Runs compared</source>
        <translation>Verglichene Läufe</translation>
    </message>
    <message>
        <source>Useful work</source>
        <translation>Nützliche Arbeit</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>Beispiele/s</translation>
    </message>
    <message>
        <source>Synchronisation</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <source>s per worker</source>
        <translation>s pro Worker</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Warten</translation>
    </message>
    <message>
        <source>Lost work</source>
        <translation>Verlorene Arbeit</translation>
    </message>
    <message>
        <source>worker-s</source>
        <translation>Worker-s</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>Energie</translation>
    </message>
    <message>
        <source>J</source>
        <translation>J</translation>
    </message>
    <message>
        <source>worker-ms</source>
        <translation>Worker-ms</translation>
    </message>
    <message>
        <source>ms per worker</source>
        <translation>ms pro Worker</translation>
    </message>
    <message>
        <source>thousand samples/s</source>
        <translation>Tausend Beispiele/s</translation>
    </message>
    <message>
        <source>None yet: every run that finishes in this session appears here, the last %1 side by side.</source>
        <translation>Noch keine: Jeder Lauf, der in dieser Sitzung endet, erscheint hier, die letzten %1 nebeneinander.</translation>
    </message>
    <message>
        <source>Lower is better except useful work. Energy uses assumed power per state, not a meter.</source>
        <translation>Niedriger ist besser, außer bei nützlicher Arbeit. Die Energie beruht auf angenommener Leistung pro Zustand, nicht auf einem Messgerät.</translation>
    </message>
</context>
<context>
    <name>lockstep::views::MemoryView</name>
    <message>
        <source>Memory per worker · step %1</source>
        <translation>Speicher je Worker · Schritt %1</translation>
    </message>
    <message>
        <source>Memory per worker</source>
        <translation>Speicher je Worker</translation>
    </message>
    <message>
        <source>the same worker without sharding, at its peak: %1</source>
        <translation>derselbe Worker ohne Sharding, an seiner Spitze: %1</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>Memory view</source>
        <translation>Speicher-Ansicht</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>Zustand des Optimierers</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>workspace</source>
        <translation>Arbeitsbereich</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 kB</source>
        <translation>%1 kB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>No run loaded.</source>
        <translation>Kein Lauf geladen.</translation>
    </message>
    <message>
        <source>This run is a pipeline: each worker holds its own stages of the model, not a replica. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Dieser Lauf ist eine Pipeline: Jeder Worker hält seine eigenen Stufen des Modells, kein Replikat. Die Speicherbilanz zählt die Worker datenparalleler Läufe.</translation>
    </message>
    <message>
        <source>This run is tensor-parallel: each worker holds its own slice of every layer, not a replica. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Dieser Lauf ist tensorparallel: Jeder Worker hält seine eigene Scheibe jeder Schicht, kein Replikat. Die Speicherbilanz zählt die Worker datenparalleler Läufe.</translation>
    </message>
    <message>
        <source>This run is a hybrid of pipelines: each worker holds its own stages. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Dieser Lauf ist ein Verbund von Pipelines: Jeder Worker hält seine eigenen Stufen. Die Speicherbilanz zählt die Worker datenparalleler Läufe.</translation>
    </message>
    <message>
        <source>This run holds no memory samples (a recording made without them).</source>
        <translation>Dieser Lauf enthält keine Speichermessungen (eine Aufzeichnung ohne sie).</translation>
    </message>
    <message>
        <source>Each worker&apos;s memory appears here as the first step runs.</source>
        <translation>Der Speicher jedes Workers erscheint hier, sobald der erste Schritt läuft.</translation>
    </message>
    <message>
        <source>%1 · 1 worker</source>
        <translation>%1 · 1 Worker</translation>
    </message>
    <message>
        <source>%1 · %2 workers</source>
        <translation>%1 · %2 Worker</translation>
    </message>
    <message>
        <source>each worker receives the others&apos; pieces of the layer, computes with it whole, then frees it.</source>
        <translation>Jeder Worker empfängt die Stücke der anderen von dieser Schicht, rechnet mit der ganzen Schicht und gibt sie dann wieder frei.</translation>
    </message>
    <message>
        <source>each worker sends its updated shard of the parameters to the others.</source>
        <translation>Jeder Worker schickt seinen aktualisierten Shard der Parameter an die anderen.</translation>
    </message>
    <message>
        <source>the workers add up the layer&apos;s gradient piece by piece, and each keeps only its own piece of the sum.</source>
        <translation>Die Worker addieren den Gradienten der Schicht Stück für Stück, und jeder behält nur sein eigenes Stück der Summe.</translation>
    </message>
    <message>
        <source>the workers add up the gradient piece by piece, and each ends with the sum of its own shard.</source>
        <translation>Die Worker addieren den Gradienten Stück für Stück, und jeder hat am Ende die Summe seines eigenen Shards.</translation>
    </message>
    <message>
        <source>Now: %1: %2</source>
        <translation>Jetzt: %1: %2</translation>
    </message>
    <message>
        <source>Every worker holds the whole model, its whole gradient and the whole optimizer state: a full replica.</source>
        <translation>Jeder Worker hält das ganze Modell, seinen ganzen Gradienten und den ganzen Zustand des Optimierers: ein volles Replikat.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of the optimizer state; the parameters and the gradient are whole.</source>
        <translation>Jeder Worker behält 1/%1 des Zustands des Optimierers; Parameter und Gradient sind ganz.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of the optimizer state, and between steps 1/%1 of the gradient; the parameters are whole.</source>
        <translation>Jeder Worker behält 1/%1 des Zustands des Optimierers und zwischen den Schritten 1/%1 des Gradienten; die Parameter sind ganz.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of every layer and gathers a layer whole only while it computes with it.</source>
        <translation>Jeder Worker behält 1/%1 jeder Schicht und sammelt eine Schicht nur ganz, solange er mit ihr rechnet.</translation>
    </message>
    <message>
        <source>Most held now: %1.</source>
        <translation>Am meisten jetzt: %1.</translation>
    </message>
    <message>
        <source>Most held now: %1; without sharding, %2 at the peak.</source>
        <translation>Am meisten jetzt: %1; ohne Sharding %2 an der Spitze.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>worker %1: %2, in all %3</source>
        <translation>Worker %1: %2, insgesamt %3</translation>
    </message>
</context>
<context>
    <name>lockstep::views::PipelineView</name>
    <message>
        <source>Pipeline view</source>
        <translation>Pipeline-Ansicht</translation>
    </message>
    <message>
        <source>Run this model as a pipeline</source>
        <translation>Dieses Modell als Pipeline ausführen</translation>
    </message>
    <message>
        <source>Cuts the same model into four stages and the batch into eight micro-batches, and runs it again</source>
        <translation>Teilt dasselbe Modell in vier Stufen und den Batch in acht Mikro-Batches auf und führt es erneut aus</translation>
    </message>
    <message>
        <source>This run is data-parallel, not a pipeline. Every worker holds the whole model and trains on its own share of the batch, so nothing flows from stage to stage and no stage waits in a bubble.</source>
        <translation>Dieser Lauf ist datenparallel, keine Pipeline. Jeder Worker hält das ganze Modell und trainiert auf seinem eigenen Anteil des Batches, daher fließt nichts von Stufe zu Stufe und keine Stufe wartet in einer Blase.</translation>
    </message>
    <message>
        <source>This run is tensor-parallel, not a pipeline. Every layer is cut across the workers, who all work on every micro-step together, so there are no stages to wait for each other.</source>
        <translation>Dieser Lauf ist tensorparallel, keine Pipeline. Jede Schicht ist auf die Worker aufgeteilt, die alle gemeinsam an jedem Mikroschritt arbeiten, daher gibt es keine Stufen, die aufeinander warten.</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 kB</source>
        <translation>%1 kB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>r%1 stage %2</source>
        <translation>r%1 Stufe %2</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>Bubble: none reported, this step ran no pipeline</source>
        <translation>Blase: keine gemeldet, dieser Schritt lief ohne Pipeline</translation>
    </message>
    <message>
        <source>Bubble: not reported for this step yet</source>
        <translation>Blase: für diesen Schritt noch nicht gemeldet</translation>
    </message>
    <message>
        <source>Bubble: %1% of stage-time idle in this step</source>
        <translation>Blase: %1% der Stufenzeit untätig in diesem Schritt</translation>
    </message>
    <message>
        <source>No pipeline step to show yet.</source>
        <translation>Noch kein Pipeline-Schritt zum Anzeigen.</translation>
    </message>
    <message>
        <source>%1: %2, %3 bubbles, peak %4 in flight</source>
        <translation>%1: %2, %3 Blasen, höchstens %4 unterwegs</translation>
    </message>
    <message>
        <source>Step %1; bubble %2% of stage-time. %3. %4</source>
        <translation>Schritt %1; Blase %2% der Stufenzeit. %3. %4</translation>
    </message>
    <message>
        <source>peak 88 in flight</source>
        <translation>höchstens 88 unterwegs</translation>
    </message>
    <message>
        <source>Pipeline: no step yet. Run a scenario with pipeline parallelism.</source>
        <translation>Pipeline: noch kein Schritt. Führ ein Szenario mit Pipeline-Parallelität aus.</translation>
    </message>
    <message>
        <source>Pipeline: none in this run</source>
        <translation>Pipeline: keine in diesem Lauf</translation>
    </message>
    <message>
        <source>forward pass</source>
        <translation>Vorwärtsdurchlauf</translation>
    </message>
    <message>
        <source>backward pass</source>
        <translation>Rückwärtsdurchlauf</translation>
    </message>
    <message>
        <source>bubble (idle)</source>
        <translation>Blase (untätig)</translation>
    </message>
    <message>
        <source>update</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>peak %1 in flight</source>
        <translation>höchstens %1 unterwegs</translation>
    </message>
    <message>
        <source>↓ %1 activations    ↑ %2 activation gradients</source>
        <translation>↓ %1 Aktivierungen    ↑ %2 Aktivierungsgradienten</translation>
    </message>
    <message>
        <source>step start</source>
        <translation>Schrittbeginn</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>time →</source>
        <translation>Zeit →</translation>
    </message>
    <message>
        <source>Bubble: %1% of stage-time idle in this step  ·  equal stages, free messages: (P−1)/(M+P−1) = %2/%3 = %4%</source>
        <translation>Blase: %1% der Stufenzeit untätig in diesem Schritt  ·  gleiche Stufen, kostenlose Nachrichten: (P−1)/(M+P−1) = %2/%3 = %4%</translation>
    </message>
    <message>
        <source>Pipeline, step %1: %2 stage, %3 per step</source>
        <translation>Pipeline, Schritt %1: %2 Stufe, %3 pro Schritt</translation>
    </message>
    <message>
        <source>Pipeline, step %1: %2 stages, %3 per step</source>
        <translation>Pipeline, Schritt %1: %2 Stufen, %3 pro Schritt</translation>
    </message>
</context>
<context>
    <name>lockstep::views::SpeedupView</name>
    <message>
        <source>Speedup view</source>
        <translation>Speedup-Ansicht</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>speedup (×)</source>
        <translation>Speedup (×)</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>Effizienz</translation>
    </message>
    <message>
        <source>ideal: speedup = workers</source>
        <translation>ideal: Speedup = Worker</translation>
    </message>
    <message>
        <source>efficiency (right axis)</source>
        <translation>Effizienz (rechte Achse)</translation>
    </message>
    <message>
        <source>measured on this computer</source>
        <translation>gemessen auf diesem Computer</translation>
    </message>
    <message>
        <source>modelled speedup</source>
        <translation>modellierter Speedup</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet…</translation>
    </message>
    <message>
        <source>Amdahl fit, serial fraction %1%</source>
        <translation>Amdahl-Anpassung, serieller Anteil %1%</translation>
    </message>
    <message>
        <source>Cannot compute the speedup: %1</source>
        <translation>Speedup kann nicht berechnet werden: %1</translation>
    </message>
    <message>
        <source>No speedup computed yet</source>
        <translation>Noch kein Speedup berechnet</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 Worker</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 Worker</translation>
    </message>
    <message>
        <source>%1: speedup %2× of an ideal %3×, efficiency %4%</source>
        <translation>%1: Speedup %2× von ideal %3×, Effizienz %4%</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>wird berechnet</translation>
    </message>
    <message>
        <source>without overlap: buckets wait for backward</source>
        <translation>ohne Überlappung: Buckets warten auf den Rückwärtsdurchlauf</translation>
    </message>
    <message>
        <source>without overlap %1×</source>
        <translation>ohne Überlappung %1×</translation>
    </message>
</context>
<context>
    <name>lockstep::views::TimelineView</name>
    <message>
        <source>No run yet</source>
        <translation>Noch kein Lauf</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>step %1 again</source>
        <translation>Schritt %1 erneut</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>Timeline view</source>
        <translation>Zeitleisten-Ansicht</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>peer: worker %1</source>
        <translation>Gegenstelle: Worker %1</translation>
    </message>
    <message numerus="yes">
        <source>gradient computed on version %1 of the model, τ = %2 (%n update(s) behind)</source>
        <translation>
            <numerusform>Gradient berechnet auf Version %1 des Modells, τ = %2 (%n Update zurück)</numerusform>
            <numerusform>Gradient berechnet auf Version %1 des Modells, τ = %2 (%n Updates zurück)</numerusform>
        </translation>
    </message>
    <message>
        <source>version %1 of the model</source>
        <translation>Version %1 des Modells</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 Worker</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 Worker</translation>
    </message>
    <message>
        <source>%1 · worker %2 · step %3 · round %4</source>
        <translation>%1 · Worker %2 · Schritt %3 · Runde %4</translation>
    </message>
    <message>
        <source>%1 · worker %2 · step %3</source>
        <translation>%1 · Worker %2 · Schritt %3</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 Bytes (%2)</translation>
    </message>
    <message>
        <source>%1 to worker %2</source>
        <translation>%1 an Worker %2</translation>
    </message>
    <message>
        <source>%1 from worker %2</source>
        <translation>%1 von Worker %2</translation>
    </message>
    <message>
        <source>%1, %2 shown, %3 steps done</source>
        <translation>%1, %2 gezeigt, %3 Schritte erledigt</translation>
    </message>
    <message>
        <source>bucket %1</source>
        <translation>Bucket %1</translation>
    </message>
    <message>
        <source>b%1</source>
        <comment>a bucket&apos;s number where its name does not fit</comment>
        <translation>B%1</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
    <message>
        <source>got bucket %1, expected %2: step stopped</source>
        <translation>Bucket %1 erhalten, %2 erwartet: Schritt angehalten</translation>
    </message>
    <message>
        <source>bucket %1: the gradients of layers %2 to %3</source>
        <translation>Bucket %1: die Gradienten der Schichten %2 bis %3</translation>
    </message>
    <message>
        <source>bucket %1: the gradient of layer %2</source>
        <translation>Bucket %1: der Gradient von Schicht %2</translation>
    </message>
    <message>
        <source>backward through layer %1: its gradient is ready at the end</source>
        <translation>rückwärts durch Schicht %1: ihr Gradient ist am Ende fertig</translation>
    </message>
    <message>
        <source>all-gather L%1</source>
        <translation>All-Gather L%1</translation>
    </message>
    <message>
        <source>reduce-scatter L%1</source>
        <translation>Reduce-Scatter L%1</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>All-Gather</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>Reduce-Scatter</translation>
    </message>
    <message>
        <source>AG%1</source>
        <comment>all-gather of a layer, where its name does not fit</comment>
        <translation>AG%1</translation>
    </message>
    <message>
        <source>RS%1</source>
        <comment>reduce-scatter of a layer&apos;s gradient, where its name does not fit</comment>
        <translation>RS%1</translation>
    </message>
    <message>
        <source>AG</source>
        <translation>AG</translation>
    </message>
    <message>
        <source>RS</source>
        <translation>RS</translation>
    </message>
</context>
<context>
    <name>lockstep::views::TrainingView</name>
    <message>
        <source>The decision boundary appears here when a run has finished.</source>
        <translation>Die Entscheidungsgrenze erscheint hier, wenn ein Lauf beendet ist.</translation>
    </message>
    <message>
        <source>The model cannot be drawn: %1</source>
        <translation>Das Modell kann nicht gezeichnet werden: %1</translation>
    </message>
    <message>
        <source>No data set to draw the decision boundary over.</source>
        <translation>Kein Datensatz, über dem die Entscheidungsgrenze gezeichnet werden kann.</translation>
    </message>
    <message>
        <source>This model predicts a number (regression), so there are no classes to colour in. The decision boundary is drawn for classification data.</source>
        <translation>Dieses Modell sagt eine Zahl voraus (Regression), daher gibt es keine Klassen zum Einfärben. Die Entscheidungsgrenze wird für Klassifikationsdaten gezeichnet.</translation>
    </message>
    <message>
        <source>The data has %1 inputs per example. The decision boundary can only be drawn over two inputs, as a flat map.</source>
        <translation>Die Daten haben %1 Eingaben pro Beispiel. Die Entscheidungsgrenze lässt sich nur über zwei Eingaben zeichnen, als flache Karte.</translation>
    </message>
    <message>
        <source>The data set is empty.</source>
        <translation>Der Datensatz ist leer.</translation>
    </message>
    <message>
        <source>Training view</source>
        <translation>Trainingsansicht</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>accuracy (right axis)</source>
        <translation>Genauigkeit (rechte Achse)</translation>
    </message>
    <message>
        <source>Decision boundary at the end of the run</source>
        <translation>Entscheidungsgrenze am Ende des Laufs</translation>
    </message>
    <message>
        <source>Decision boundary</source>
        <translation>Entscheidungsgrenze</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>loss (mean over workers)</source>
        <translation>Verlust (Mittelwert über die Worker)</translation>
    </message>
    <message>
        <source>No training steps yet</source>
        <translation>Noch keine Trainingsschritte</translation>
    </message>
    <message>
        <source>no training steps yet</source>
        <translation>noch keine Trainingsschritte</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>Verlust %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>accuracy %1%</source>
        <translation>Genauigkeit %1%</translation>
    </message>
    <message>
        <source>replicas identical again</source>
        <translation>Repliken wieder identisch</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>Repliken weichen ab</translation>
    </message>
    <message>
        <source>replicas identical</source>
        <translation>Repliken identisch</translation>
    </message>
    <message>
        <source>%1 of %2 workers drawn</source>
        <translation>%1 von %2 Workern gezeichnet</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>Klasse %1</translation>
    </message>
    <message>
        <source>Shade: the class the model predicts, paler where it is less sure. Marks: the data by true class; %1% lie in their own class&apos;s shade.</source>
        <translation>Fläche: die Klasse, die das Modell vorhersagt, blasser, wo es unsicherer ist. Punkte: die Daten nach ihrer wahren Klasse; %1% liegen in der Fläche ihrer eigenen Klasse.</translation>
    </message>
    <message>
        <source>The model puts %1% of the %2 data points in their own class.</source>
        <translation>Das Modell ordnet %1% der %2 Datenpunkte ihrer eigenen Klasse zu.</translation>
    </message>
    <message>
        <source>work lost in a restart</source>
        <translation>bei einem Neustart verlorene Arbeit</translation>
    </message>
    <message>
        <source>training diverged in step %1: the loss became %2; the learning rate is probably too large</source>
        <translation>Training in Schritt %1 divergiert: der Verlust ist %2; die Lernrate ist wahrscheinlich zu groß</translation>
    </message>
    <message>
        <source>not a number</source>
        <translation>keine Zahl mehr (NaN)</translation>
    </message>
    <message>
        <source>infinite</source>
        <translation>unendlich</translation>
    </message>
    <message>
        <source>loss scale %1</source>
        <translation>Verlustskalierung %1</translation>
    </message>
    <message>
        <source>step %1 skipped: its summed gradient overflowed, the loss scale is halved</source>
        <translation>Schritt %1 übersprungen: Sein summierter Gradient ist übergelaufen, der Faktor der Verlustskalierung wird halbiert</translation>
    </message>
    <message>
        <source>1 step skipped on an overflow</source>
        <translation>1 Schritt wegen Überlauf übersprungen</translation>
    </message>
    <message>
        <source>%1 steps skipped on an overflow</source>
        <translation>%1 Schritte wegen Überlauf übersprungen</translation>
    </message>
    <message>
        <source>skipped: overflow</source>
        <translation>übersprungen: Überlauf</translation>
    </message>
</context>
</TS>
