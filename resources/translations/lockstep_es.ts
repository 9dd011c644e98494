<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>Accessibility</name>
    <message>
        <source>Worker %1</source>
        <translation>Trabajador %1</translation>
    </message>
    <message>
        <source>waiting for worker %1</source>
        <translation>esperando al trabajador %1</translation>
    </message>
    <message>
        <source>sending to worker %1</source>
        <translation>enviando al trabajador %1</translation>
    </message>
    <message>
        <source>receiving from worker %1</source>
        <translation>recibiendo del trabajador %1</translation>
    </message>
    <message>
        <source>%1; gradient %2</source>
        <translation>%1; gradiente %2</translation>
    </message>
    <message>
        <source>Lane of worker %1</source>
        <translation>Franja del trabajador %1</translation>
    </message>
    <message>
        <source>idle at the playhead</source>
        <translation>inactivo en el cabezal de reproducción</translation>
    </message>
    <message>
        <source>Step %1, file of worker %2</source>
        <translation>Paso %1, archivo del trabajador %2</translation>
    </message>
    <message>
        <source>Step %1, manifest</source>
        <translation>Paso %1, manifiesto</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>burbuja</translation>
    </message>
    <message>
        <source>%1 of micro-batch %2</source>
        <translation>%1, microlote %2</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>Etapa %1: %2</translation>
    </message>
    <message>
        <source>%1 to %2 ms; %3</source>
        <translation>de %1 a %2 ms; %3</translation>
    </message>
    <message>
        <source>done</source>
        <translation>terminado</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>to come</source>
        <translation>pendiente</translation>
    </message>
</context>
<context>
    <name>CheckpointShelf</name>
    <message>
        <source>writing</source>
        <translation>escribiendo</translation>
    </message>
    <message>
        <source>synced</source>
        <translation>sincronizado</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>renombrado</translation>
    </message>
    <message>
        <source>committed</source>
        <translation>confirmado</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>parcial</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>dañado</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>ausente</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>todavía no</translation>
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
        <translation>guardando</translation>
    </message>
    <message>
        <source>committed</source>
        <translation>confirmado</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>parcial</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>dañado</translation>
    </message>
    <message>
        <source>not written yet: the files are still being saved</source>
        <translation>todavía sin escribir: los archivos se están guardando</translation>
    </message>
    <message>
        <source>being written, synced and renamed</source>
        <translation>escribiéndose, sincronizándose y renombrándose</translation>
    </message>
    <message>
        <source>committed: this checkpoint counts</source>
        <translation>confirmado: este punto de control cuenta</translation>
    </message>
    <message>
        <source>never written: a crash came first, so this checkpoint is partial</source>
        <translation>nunca escrito: antes llegó un fallo, así que este punto de control es parcial</translation>
    </message>
</context>
<context>
    <name>ClassPage</name>
    <message>
        <source>Class quiz · Lockstep</source>
        <translation>Cuestionario de clase · Lockstep</translation>
    </message>
    <message>
        <source>Class quiz</source>
        <translation>Cuestionario de clase</translation>
    </message>
    <message>
        <source>This quiz needs JavaScript. Please turn it on in your browser and reload the page.</source>
        <translation>Este cuestionario necesita JavaScript. Actívalo en tu navegador y vuelve a cargar la página.</translation>
    </message>
    <message>
        <source>Connecting to the class…</source>
        <translation>Conectando con la clase…</translation>
    </message>
    <message>
        <source>Join the class quiz</source>
        <translation>Únete al cuestionario de clase</translation>
    </message>
    <message>
        <source>Type the code from the teacher&apos;s screen, and your name.</source>
        <translation>Escribe el código de la pantalla del docente y tu nombre.</translation>
    </message>
    <message>
        <source>Join code</source>
        <translation>Código para unirte</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>Tu nombre</translation>
    </message>
    <message>
        <source>Your teacher will see this name next to your answers.</source>
        <translation>Tu docente verá este nombre junto a tus respuestas.</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Unirme</translation>
    </message>
    <message>
        <source>You&apos;re in!</source>
        <translation>¡Ya estás dentro!</translation>
    </message>
    <message>
        <source>Waiting for the first question…</source>
        <translation>Esperando la primera pregunta…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <source>Answers are closed.</source>
        <translation>Las respuestas están cerradas.</translation>
    </message>
    <message>
        <source>Wait for the teacher.</source>
        <translation>Espera al docente.</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Tu respuesta</translation>
    </message>
    <message>
        <source>Right answer</source>
        <translation>Respuesta correcta</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Por qué</translation>
    </message>
    <message>
        <source>The next question comes when the teacher is ready.</source>
        <translation>La siguiente pregunta llegará cuando el docente esté listo.</translation>
    </message>
    <message>
        <source>The quiz is over</source>
        <translation>El cuestionario ha terminado</translation>
    </message>
    <message>
        <source>Thanks for taking part!</source>
        <translation>¡Gracias por participar!</translation>
    </message>
    <message>
        <source>You can close this page now.</source>
        <translation>Ya puedes cerrar esta página.</translation>
    </message>
    <message>
        <source>Class quiz · teacher · Lockstep</source>
        <translation>Cuestionario de clase · docente · Lockstep</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Conectando…</translation>
    </message>
    <message>
        <source>Quiz controls</source>
        <translation>Controles del cuestionario</translation>
    </message>
    <message>
        <source>Open first question</source>
        <translation>Abrir la primera pregunta</translation>
    </message>
    <message>
        <source>Close answers</source>
        <translation>Cerrar las respuestas</translation>
    </message>
    <message>
        <source>Reveal the answer</source>
        <translation>Mostrar la respuesta</translation>
    </message>
    <message>
        <source>Next question</source>
        <translation>Siguiente pregunta</translation>
    </message>
    <message>
        <source>Download results (CSV)</source>
        <translation>Descargar resultados (CSV)</translation>
    </message>
    <message>
        <source>Students, open</source>
        <translation>Estudiantes, abrid</translation>
    </message>
    <message>
        <source>and type the code</source>
        <translation>y escribid el código</translation>
    </message>
    <message>
        <source>QR code of the students&apos; address</source>
        <translation>Código QR de la dirección para estudiantes</translation>
    </message>
    <message>
        <source>Lobby locked</source>
        <translation>Sala cerrada</translation>
    </message>
    <message>
        <source>What the class answered</source>
        <translation>Lo que respondió la clase</translation>
    </message>
    <message>
        <source>The answer:</source>
        <translation>La respuesta:</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>Desarrollo</translation>
    </message>
    <message>
        <source>See it in the lab</source>
        <translation>Verlo en el laboratorio</translation>
    </message>
    <message>
        <source>Worked with the first student&apos;s numbers; every student had their own.</source>
        <translation>Calculado con los números del primer estudiante; cada estudiante tuvo los suyos.</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Estudiante</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Correctas</translation>
    </message>
    <message>
        <source>Join at</source>
        <translation>Únete en</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <source>Students</source>
        <translation>Estudiantes</translation>
    </message>
    <message>
        <source>Lock the lobby</source>
        <translation>Cerrar la sala</translation>
    </message>
    <message>
        <source>Could not reach the class server. Check that you are on the classroom Wi-Fi, then try again.</source>
        <translation>No se puede conectar con el servidor de la clase. Comprueba que estás en la wifi del aula y vuelve a intentarlo.</translation>
    </message>
    <message>
        <source>Something went wrong (error {1}). Please try again.</source>
        <translation>Algo ha fallado (error {1}). Vuelve a intentarlo.</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>En directo</translation>
    </message>
    <message>
        <source>Checking every 2 s</source>
        <translation>Comprobando cada 2 s</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>Reconectando…</translation>
    </message>
    <message>
        <source>Type the join code shown on the teacher&apos;s screen.</source>
        <translation>Escribe el código que aparece en la pantalla del docente.</translation>
    </message>
    <message>
        <source>Type your name, so your teacher knows who answered.</source>
        <translation>Escribe tu nombre para que tu docente sepa quién ha respondido.</translation>
    </message>
    <message>
        <source>Joining…</source>
        <translation>Uniéndote…</translation>
    </message>
    <message>
        <source>That code is not right. Check the code on the teacher&apos;s screen.</source>
        <translation>Ese código no es correcto. Mira el código en la pantalla del docente.</translation>
    </message>
    <message>
        <source>The teacher has locked the lobby, so nobody new can join right now.</source>
        <translation>El docente ha cerrado la sala, así que ahora nadie más puede unirse.</translation>
    </message>
    <message>
        <source>Too many tries at once. Wait a minute, then try again.</source>
        <translation>Demasiados intentos a la vez. Espera un minuto y vuelve a intentarlo.</translation>
    </message>
    <message>
        <source>The class is full.</source>
        <translation>La clase está llena.</translation>
    </message>
    <message>
        <source>You are no longer in the quiz: the teacher may have removed you, or the quiz was restarted. Join again with the code on the teacher&apos;s screen.</source>
        <translation>Ya no estás en el cuestionario: puede que el docente te haya quitado o que el cuestionario se haya reiniciado. Vuelve a unirte con el código de la pantalla del docente.</translation>
    </message>
    <message>
        <source>You joined as {1}</source>
        <translation>Te has unido como {1}</translation>
    </message>
    <message>
        <source>{1} student has joined.</source>
        <translation>{1} estudiante se ha unido.</translation>
    </message>
    <message>
        <source>{1} students have joined.</source>
        <translation>{1} estudiantes se han unido.</translation>
    </message>
    <message>
        <source>Question {1} of {2}</source>
        <translation>Pregunta {1} de {2}</translation>
    </message>
    <message>
        <source>Question {1}</source>
        <translation>Pregunta {1}</translation>
    </message>
    <message>
        <source>Choose one answer.</source>
        <translation>Elige una respuesta.</translation>
    </message>
    <message>
        <source>Choose every answer that is right.</source>
        <translation>Elige todas las respuestas correctas.</translation>
    </message>
    <message>
        <source>Put these in order. Type their letters, first to last, with spaces between them (for example: b a c).</source>
        <translation>Ordénalos. Escribe sus letras, del primero al último, separadas por espacios (por ejemplo: b a c).</translation>
    </message>
    <message>
        <source>Your order</source>
        <translation>Tu orden</translation>
    </message>
    <message>
        <source>for example: b a c</source>
        <translation>por ejemplo: b a c</translation>
    </message>
    <message>
        <source>Your answer, in {1}</source>
        <translation>Tu respuesta, en {1}</translation>
    </message>
    <message>
        <source>Answer received: {1} (read as {2})</source>
        <translation>Respuesta recibida: {1} (leída como {2})</translation>
    </message>
    <message>
        <source>Answer received: {1}</source>
        <translation>Respuesta recibida: {1}</translation>
    </message>
    <message>
        <source>You can change it until the teacher closes the question.</source>
        <translation>Puedes cambiarla hasta que el docente cierre la pregunta.</translation>
    </message>
    <message>
        <source>That was your last change: this answer counts.</source>
        <translation>Ese fue tu último cambio: esta respuesta cuenta.</translation>
    </message>
    <message>
        <source>You can still change it {1} time until the teacher closes the question.</source>
        <translation>Aún puedes cambiarla {1} vez hasta que el docente cierre la pregunta.</translation>
    </message>
    <message>
        <source>You can still change it {1} times until the teacher closes the question.</source>
        <translation>Aún puedes cambiarla {1} veces hasta que el docente cierre la pregunta.</translation>
    </message>
    <message>
        <source>Choose an answer first.</source>
        <translation>Elige primero una respuesta.</translation>
    </message>
    <message>
        <source>Choose at least one answer first.</source>
        <translation>Elige primero al menos una respuesta.</translation>
    </message>
    <message>
        <source>Type your answer first.</source>
        <translation>Escribe primero tu respuesta.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Enviando…</translation>
    </message>
    <message>
        <source>That answer could not be read. Type a number, like 5 or 2.5.</source>
        <translation>No se ha podido leer esa respuesta. Escribe un número, como 5 o 2,5.</translation>
    </message>
    <message>
        <source>This question is not open for answers any more.</source>
        <translation>Esta pregunta ya no admite respuestas.</translation>
    </message>
    <message>
        <source>Too many answers at once. Wait a moment, then send again.</source>
        <translation>Demasiadas respuestas a la vez. Espera un momento y vuelve a enviarla.</translation>
    </message>
    <message>
        <source>You did not send an answer.</source>
        <translation>No enviaste ninguna respuesta.</translation>
    </message>
    <message>
        <source>Your answer: {1}</source>
        <translation>Tu respuesta: {1}</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>Correcta</translation>
    </message>
    <message>
        <source>Close, but not quite</source>
        <translation>Cerca, pero no del todo</translation>
    </message>
    <message>
        <source>Not right this time</source>
        <translation>Esta vez no es correcta</translation>
    </message>
    <message>
        <source>No answer sent</source>
        <translation>No se envió respuesta</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(ninguna)</translation>
    </message>
    <message>
        <source>You got {1} of {2} right</source>
        <translation>Acertaste {1} de {2}</translation>
    </message>
    <message>
        <source>The quiz is over.</source>
        <translation>El cuestionario ha terminado.</translation>
    </message>
    <message>
        <source>The quiz server cannot be reached. Is lockstep still running?</source>
        <translation>No se puede conectar con el servidor del cuestionario. ¿Sigue abierto lockstep?</translation>
    </message>
    <message>
        <source>That did not work (error {1}).</source>
        <translation>Eso no ha funcionado (error {1}).</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Sin conexión</translation>
    </message>
    <message>
        <source>Lobby</source>
        <translation>Sala</translation>
    </message>
    <message>
        <source>Answers open</source>
        <translation>Respuestas abiertas</translation>
    </message>
    <message>
        <source>Answers closed</source>
        <translation>Respuestas cerradas</translation>
    </message>
    <message>
        <source>Answer revealed</source>
        <translation>Respuesta mostrada</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Terminado</translation>
    </message>
    <message>
        <source>Finish the quiz</source>
        <translation>Terminar el cuestionario</translation>
    </message>
    <message>
        <source>Unlock the lobby</source>
        <translation>Abrir la sala</translation>
    </message>
    <message>
        <source>Nobody has joined yet.</source>
        <translation>Todavía no se ha unido nadie.</translation>
    </message>
    <message>
        <source>{1} student has joined</source>
        <translation>{1} estudiante se ha unido</translation>
    </message>
    <message>
        <source>{1} students have joined</source>
        <translation>{1} estudiantes se han unido</translation>
    </message>
    <message>
        <source>{1} of {2} answered</source>
        <translation>{1} de {2} han respondido</translation>
    </message>
    <message>
        <source>✓ right</source>
        <translation>✓ correcta</translation>
    </message>
    <message>
        <source>a common mistake</source>
        <translation>un error frecuente</translation>
    </message>
    <message>
        <source>close</source>
        <translation>cerca</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>ha respondido</translation>
    </message>
    <message>
        <source>not answered yet</source>
        <translation>aún no ha respondido</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>sin respuesta</translation>
    </message>
    <message>
        <source>Nobody yet</source>
        <translation>Nadie todavía</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove {1}</source>
        <translation>Quitar a {1}</translation>
    </message>
    <message>
        <source>{1} of {2}</source>
        <translation>{1} de {2}</translation>
    </message>
    <message>
        <source>Nobody took part.</source>
        <translation>Nadie participó.</translation>
    </message>
    <message>
        <source>On average the class got {1} of {2} right.</source>
        <translation>De media, la clase acertó {1} de {2}.</translation>
    </message>
    <message>
        <source>On average the class got {1} right.</source>
        <translation>De media, la clase acertó {1}.</translation>
    </message>
    <message>
        <source>Remove {1} from the quiz?</source>
        <translation>¿Quitar a {1} del cuestionario?</translation>
    </message>
    <message>
        <source>The results could not be downloaded.</source>
        <translation>No se han podido descargar los resultados.</translation>
    </message>
    <message>
        <source>This page is no longer signed in as the teacher (the quiz may have been restarted). Open the newest teacher link that lockstep printed.</source>
        <translation>Esta página ya no tiene la sesión del docente (quizá el cuestionario se reinició). Abre el enlace de docente más reciente que imprimió lockstep.</translation>
    </message>
    <message>
        <source>This page is no longer signed in as the teacher.</source>
        <translation>Esta página ya no tiene la sesión del docente.</translation>
    </message>
    <message>
        <source>{1} wrong codes tried; the code changed {2} times.</source>
        <translation>{1} códigos equivocados probados; el código cambió {2} veces.</translation>
    </message>
    <message>
        <source>Closes in {1}</source>
        <translation>Se cierra en {1}</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Atrás</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Saltar</translation>
    </message>
    <message>
        <source>Timer</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>What the screen shows</source>
        <translation>Lo que muestra la pantalla</translation>
    </message>
    <message>
        <source>Names</source>
        <translation>Nombres</translation>
    </message>
    <message>
        <source>Ranking</source>
        <translation>Clasificación</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>Histograma</translation>
    </message>
    <message>
        <source>Reports to print</source>
        <translation>Informes para imprimir</translation>
    </message>
    <message>
        <source>The histogram is hidden.</source>
        <translation>El histograma está oculto.</translation>
    </message>
    <message>
        <source>Names are hidden from the screen; tick Names to see them.</source>
        <translation>Los nombres no se ven en la pantalla; marca «Nombres» para verlos.</translation>
    </message>
    <message>
        <source>Student {1}</source>
        <translation>Estudiante {1}</translation>
    </message>
    <message>
        <source>Pick {1} to remove</source>
        <translation>Elegir a {1} para quitarlo</translation>
    </message>
    <message>
        <source>Remove the {1} ticked</source>
        <translation>Quitar a los {1} marcados</translation>
    </message>
    <message>
        <source>Remove {1} students from the quiz?</source>
        <translation>¿Quitar a {1} estudiantes del cuestionario?</translation>
    </message>
    <message>
        <source>{1} student</source>
        <translation>{1} estudiante</translation>
    </message>
    <message>
        <source>{1} students</source>
        <translation>{1} estudiantes</translation>
    </message>
</context>
<context>
    <name>ClassWindow</name>
    <message>
        <source>Lobby: students are joining</source>
        <translation>Sala de espera: los estudiantes se están uniendo</translation>
    </message>
    <message>
        <source>Answering</source>
        <translation>Respondiendo</translation>
    </message>
    <message>
        <source>Answers closed</source>
        <translation>Respuestas cerradas</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>La respuesta</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Puntuaciones</translation>
    </message>
    <message>
        <source>one student</source>
        <translation>de un estudiante</translation>
    </message>
    <message>
        <source>Student %1</source>
        <translation>Estudiante %1</translation>
    </message>
</context>
<context>
    <name>ClusterView</name>
    <message>
        <source>first gradient entry</source>
        <translation>primera entrada del gradiente</translation>
    </message>
    <message>
        <source>step %1 · t = %2 s</source>
        <translation>paso %1 · t = %2 s</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>réplicas alineadas</translation>
    </message>
    <message>
        <source>ring all-reduce</source>
        <translation>all-reduce en anillo</translation>
    </message>
    <message>
        <source>parameter server (worker 0)</source>
        <translation>servidor de parámetros (trabajador 0)</translation>
    </message>
    <message>
        <source>binary-tree all-reduce</source>
        <translation>all-reduce en árbol binario</translation>
    </message>
    <message>
        <source>no synchronisation</source>
        <translation>sin sincronización</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>anillo</translation>
    </message>
    <message>
        <source>parameter server</source>
        <translation>servidor de parámetros</translation>
    </message>
    <message>
        <source>tree</source>
        <translation>árbol</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 trabajador</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 trabajadores</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Clúster</translation>
    </message>
    <message>
        <source>No run loaded</source>
        <translation>No hay ninguna ejecución cargada</translation>
    </message>
    <message>
        <source>no step finished yet</source>
        <translation>todavía no ha terminado ningún paso</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>las réplicas difieren</translation>
    </message>
    <message>
        <source>Δ: how far each replica is from the replicas&apos; mean</source>
        <translation>Δ: cuánto se aleja cada réplica de la media de las réplicas</translation>
    </message>
    <message>
        <source>a pipeline: activations go forward, gradients come back</source>
        <translation>una canalización: las activaciones van hacia delante, los gradientes vuelven</translation>
    </message>
    <message>
        <source>every layer split: an all-reduce inside each layer (%1)</source>
        <translation>cada capa dividida: un all-reduce dentro de cada capa (%1)</translation>
    </message>
    <message>
        <source>%1 replicas of a %2-stage pipeline, %3 between them</source>
        <translation>%1 réplicas de una canalización de %2 etapas, %3 entre ellas</translation>
    </message>
    <message>
        <source>hierarchical all-reduce (inside machines, then across)</source>
        <translation>all-reduce jerárquico (primero dentro de las máquinas, luego entre ellas)</translation>
    </message>
    <message>
        <source>hierarchical</source>
        <translation>jerárquico</translation>
    </message>
    <message>
        <source>%1 machines of %2</source>
        <translation>%1 máquinas de %2</translation>
    </message>
</context>
<context>
    <name>ContinuationPlot</name>
    <message>
        <source>uninterrupted run</source>
        <translation>ejecución sin interrupciones</translation>
    </message>
    <message>
        <source>after a full restore</source>
        <translation>tras una restauración completa</translation>
    </message>
    <message>
        <source>after a weights-only restore</source>
        <translation>tras restaurar solo los pesos</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>back to step %1</source>
        <translation>vuelta al paso %1</translation>
    </message>
    <message>
        <source>back to the start</source>
        <translation>vuelta al inicio</translation>
    </message>
    <message>
        <source>Same loss as the uninterrupted run at every step; the final weights are identical bit for bit.</source>
        <translation>La misma pérdida que la ejecución sin interrupciones en cada paso; los pesos finales son idénticos bit a bit.</translation>
    </message>
    <message>
        <source>From step %1 on the loss differs from the uninterrupted run by up to %2; the final weights are the same.</source>
        <translation>Desde el paso %1, la pérdida difiere de la de la ejecución sin interrupciones hasta en %2; los pesos finales son los mismos.</translation>
    </message>
    <message>
        <source>From step %1 on the loss differs from the uninterrupted run by up to %2; the final weights differ.</source>
        <translation>Desde el paso %1, la pérdida difiere de la de la ejecución sin interrupciones hasta en %2; los pesos finales son distintos.</translation>
    </message>
</context>
<context>
    <name>Fault</name>
    <message>
        <source>Under %1 the workers read the one model the server holds: there are no replicas to copy parameters between.</source>
        <translation>Con %1 los trabajadores leen el único modelo que guarda el servidor: no hay réplicas entre las que copiar parámetros.</translation>
    </message>
    <message>
        <source>A broadcast is priced by the cost model: switch to the modelled clock.</source>
        <translation>Una difusión la calcula el modelo de costes: cambia al reloj modelado.</translation>
    </message>
    <message>
        <source>With one worker there is nobody to copy the parameters to.</source>
        <translation>Con un trabajador no hay nadie a quien copiar los parámetros.</translation>
    </message>
    <message>
        <source>Crash</source>
        <translation>Crash (fallo)</translation>
    </message>
    <message>
        <source>worker %1 crashed</source>
        <translation>fallo del trabajador %1</translation>
    </message>
    <message>
        <source>With one worker there is nobody left to go on.</source>
        <translation>Con un solo trabajador no queda nadie para continuar.</translation>
    </message>
    <message>
        <source>Crash during next checkpoint</source>
        <translation>Crash en el próximo punto de control</translation>
    </message>
    <message>
        <source>worker %1 crashes in the next checkpoint</source>
        <translation>fallo del trabajador %1 en el próximo punto de control</translation>
    </message>
    <message>
        <source>This scenario saves no checkpoints, so there is no next checkpoint to crash in. Give it a checkpoint policy first.</source>
        <translation>Este escenario no guarda puntos de control, así que no hay un próximo punto de control en el que fallar. Dale antes una política de puntos de control.</translation>
    </message>
    <message>
        <source>With backup workers a crash is a gradient that never arrives; crash the worker in a step instead.</source>
        <translation>Con trabajadores de reserva, un fallo es un gradiente que nunca llega; haz que el trabajador falle en un paso.</translation>
    </message>
    <message>
        <source>Pause for 2 steps</source>
        <translation>Detener durante 2 pasos</translation>
    </message>
    <message>
        <source>worker %1 paused for 2 steps</source>
        <translation>trabajador %1 detenido durante 2 pasos</translation>
    </message>
    <message>
        <source>“%1” cannot change while the run goes on.</source>
        <translation>“%1” no puede cambiar mientras la ejecución está en marcha.</translation>
    </message>
    <message>
        <source>Slow down 3×</source>
        <translation>Ralentizar 3×</translation>
    </message>
    <message>
        <source>worker %1 slowed 3×</source>
        <translation>trabajador %1 ralentizado 3×</translation>
    </message>
    <message>
        <source>Back to full speed</source>
        <translation>De nuevo a velocidad normal</translation>
    </message>
    <message>
        <source>worker %1 back to full speed</source>
        <translation>trabajador %1 de nuevo a velocidad normal</translation>
    </message>
    <message>
        <source>Reduce buckets out of order</source>
        <translation>Reducir los cubos en otro orden</translation>
    </message>
    <message>
        <source>worker %1 reduced its buckets out of order</source>
        <translation>el trabajador %1 redujo sus cubos en otro orden</translation>
    </message>
    <message>
        <source>This run sends its whole gradient in one bucket: there is no order to get wrong.</source>
        <translation>Esta ejecución envía todo su gradiente en un solo cubo: no hay orden que equivocar.</translation>
    </message>
    <message>
        <source>A sharded worker&apos;s optimizer state is its own shard: there is no whole state to copy to the others.</source>
        <translation>El estado del optimizador de un worker fragmentado es solo su propio fragmento: no hay un estado completo que copiar a los demás.</translation>
    </message>
    <message>
        <source>Slow its link 10×</source>
        <translation>Ralentizar su enlace 10×</translation>
    </message>
    <message>
        <source>worker %1&apos;s link slowed 10×</source>
        <translation>enlace del trabajador %1 ralentizado 10×</translation>
    </message>
    <message>
        <source>In this run the workers send each other nothing: there is no link to slow.</source>
        <translation>En esta ejecución los trabajadores no se envían nada: no hay enlace que ralentizar.</translation>
    </message>
    <message>
        <source>Under %1 a link is slowed in the scenario (failures: slow-link), not while the run goes on; switch to bsp to slow one now.</source>
        <translation>Con %1 un enlace se ralentiza en el escenario (failures: slow-link), no mientras la ejecución avanza; cambia a bsp para ralentizar uno ahora.</translation>
    </message>
    <message>
        <source>worker %1&apos;s parameters copied to every worker</source>
        <translation>parámetros del trabajador %1 copiados a todos los trabajadores</translation>
    </message>
    <message>
        <source>worker %1 paused for %2 s</source>
        <translation>trabajador %1 detenido durante %2 s</translation>
    </message>
    <message>
        <source>worker %1 slowed %2×</source>
        <translation>trabajador %1 ralentizado %2×</translation>
    </message>
    <message>
        <source>worker %1&apos;s link slowed %2×</source>
        <translation>enlace del trabajador %1 ralentizado %2×</translation>
    </message>
</context>
<context>
    <name>Lockstep</name>
    <message>
        <source>Lockstep does not speak &apos;%1&apos; (it speaks %2)</source>
        <translation>Lockstep no habla «%1» (habla %2)</translation>
    </message>
    <message>
        <source>right</source>
        <comment>histogram bar</comment>
        <translation>correcta</translation>
    </message>
    <message>
        <source>for example 2.5, 2,5 or 5/2</source>
        <translation>por ejemplo 2.5, 2,5 o 5/2</translation>
    </message>
    <message>
        <source>Part of the answer is missing (%1).</source>
        <translation>Falta parte de la respuesta (%1).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number I can read (%2).</source>
        <translation>«%1» no es un número que yo pueda leer (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has a space inside the number: write it as one number (%2).</source>
        <translation>«%1» tiene un espacio dentro del número: escríbelo como un solo número (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; mixes commas and points in a way that is not clear: use one decimal separator (%2).</source>
        <translation>«%1» mezcla comas y puntos de una forma que no queda clara: usa un solo separador decimal (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has more than one decimal separator (%2).</source>
        <translation>«%1» tiene más de un separador decimal (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; could be read two ways (a thousands separator or a decimal comma): write %2 or %3.</source>
        <translation>«%1» se puede leer de dos maneras (como separador de miles o como coma decimal): escribe %2 o %3.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is too large to be a useful answer.</source>
        <translation>«%1» es demasiado grande para ser una respuesta útil.</translation>
    </message>
    <message>
        <source>Type a number, %1.</source>
        <translation>Escribe un número, %1.</translation>
    </message>
    <message>
        <source>The unit, if you write one, is %1.</source>
        <translation>La unidad, si escribes una, es %1.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has more than one &apos;/&apos;: write one fraction such as 5/2.</source>
        <translation>«%1» tiene más de una «/»: escribe una sola fracción, como 5/2.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; divides by zero: the number below the line cannot be 0.</source>
        <translation>«%1» divide entre cero: el número de debajo de la línea no puede ser 0.</translation>
    </message>
    <message>
        <source>letters a to %1 or numbers 1 to %2</source>
        <translation>letras de la a a la %1 o números del 1 al %2</translation>
    </message>
    <message>
        <source>Choose one answer (%1).</source>
        <translation>Elige una respuesta (%1).</translation>
    </message>
    <message>
        <source>Choose your answers (%1).</source>
        <translation>Elige tus respuestas (%1).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of the choices (%2).</source>
        <translation>«%1» no es una de las opciones (%2).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is there twice: name each choice once.</source>
        <translation>«%1» aparece dos veces: nombra cada opción una sola vez.</translation>
    </message>
    <message>
        <source>Choose exactly one answer (%1).</source>
        <translation>Elige exactamente una respuesta (%1).</translation>
    </message>
    <message>
        <source>Put all %1 items in order, each once (for example c, a, b, ...).</source>
        <translation>Ordena los %1 elementos, cada uno una sola vez (por ejemplo c, a, b, ...).</translation>
    </message>
    <message>
        <source>The page %1 is missing from this build.</source>
        <translation>Falta la página %1 en esta compilación.</translation>
    </message>
    <message>
        <source>The request&apos;s body is not JSON: %1 at byte %2.</source>
        <translation>El cuerpo de la petición no es JSON: %1 en el byte %2.</translation>
    </message>
    <message>
        <source>The request&apos;s body must be a JSON object.</source>
        <translation>El cuerpo de la petición debe ser un objeto JSON.</translation>
    </message>
    <message>
        <source>The request needs &quot;%1&quot;.</source>
        <translation>La petición necesita &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be text.</source>
        <translation>&quot;%1&quot; debe ser texto.</translation>
    </message>
    <message>
        <source>QR code of the class address</source>
        <translation>Código QR de la dirección de la clase</translation>
    </message>
    <message>
        <source>The server could not do that: %1</source>
        <translation>El servidor no pudo hacerlo: %1</translation>
    </message>
    <message>
        <source>The request is too large: at most %1 bytes.</source>
        <translation>La petición es demasiado grande: como máximo %1 bytes.</translation>
    </message>
    <message>
        <source>%1 only answers GET.</source>
        <translation>%1 solo responde a GET.</translation>
    </message>
    <message>
        <source>/teacher only answers GET.</source>
        <translation>/teacher solo responde a GET.</translation>
    </message>
    <message>
        <source>There is no page here. Students open the address on the projector.</source>
        <translation>Aquí no hay ninguna página. Los estudiantes abren la dirección que aparece en el proyector.</translation>
    </message>
    <message>
        <source>/api/join only answers POST.</source>
        <translation>/api/join solo responde a POST.</translation>
    </message>
    <message>
        <source>No such API: /api/%1.</source>
        <translation>No existe esa API: /api/%1.</translation>
    </message>
    <message>
        <source>/api/%1 only answers %2.</source>
        <translation>/api/%1 solo responde a %2.</translation>
    </message>
    <message>
        <source>No question is shown now.</source>
        <translation>Ahora no se muestra ninguna pregunta.</translation>
    </message>
    <message>
        <source>That answer is too long: at most %1 characters.</source>
        <translation>Esa respuesta es demasiado larga: como máximo %1 caracteres.</translation>
    </message>
    <message>
        <source>The teacher&apos;s API needs the teacher&apos;s token.</source>
        <translation>La API del docente necesita el token del docente.</translation>
    </message>
    <message>
        <source>/api/teacher/%1 only answers %2.</source>
        <translation>/api/teacher/%1 solo responde a %2.</translation>
    </message>
    <message>
        <source>The server is not listening yet.</source>
        <translation>El servidor todavía no está escuchando.</translation>
    </message>
    <message>
        <source>&quot;locked&quot; must be true or false.</source>
        <translation>&quot;locked&quot; debe ser true o false.</translation>
    </message>
    <message>
        <source>No such API: /api/teacher/%1.</source>
        <translation>No existe esa API: /api/teacher/%1.</translation>
    </message>
    <message>
        <source>class quiz: bank &apos;%1&apos; has no question %2</source>
        <translation>cuestionario de clase: el banco «%1» no tiene la pregunta %2</translation>
    </message>
    <message>
        <source>class quiz: bank &apos;%1&apos; has no questions</source>
        <translation>cuestionario de clase: el banco «%1» no tiene preguntas</translation>
    </message>
    <message>
        <source>Too many joins from this computer; wait a minute and try again.</source>
        <translation>Demasiados intentos de unirse desde este ordenador; espera un minuto y vuelve a intentarlo.</translation>
    </message>
    <message>
        <source>That join code is not this class&apos;s. Check the code on the projector.</source>
        <translation>Ese código no es el de esta clase. Comprueba el código en el proyector.</translation>
    </message>
    <message>
        <source>Type your name to join.</source>
        <translation>Escribe tu nombre para unirte.</translation>
    </message>
    <message>
        <source>That name is too long: at most %1 characters.</source>
        <translation>Ese nombre es demasiado largo: como máximo %1 caracteres.</translation>
    </message>
    <message>
        <source>A name cannot hold control characters.</source>
        <translation>Un nombre no puede contener caracteres de control.</translation>
    </message>
    <message>
        <source>The teacher has locked the lobby: no one can join now.</source>
        <translation>El docente ha cerrado la sala de espera: ahora nadie puede unirse.</translation>
    </message>
    <message>
        <source>The class is full (%1 students).</source>
        <translation>La clase está llena (%1 estudiantes).</translation>
    </message>
    <message>
        <source>This page is not in the class quiz: join again.</source>
        <translation>Esta página no está en el cuestionario de clase: vuelve a unirte.</translation>
    </message>
    <message>
        <source>The teacher removed you from this quiz.</source>
        <translation>El docente te ha quitado de este cuestionario.</translation>
    </message>
    <message>
        <source>Too many requests from this page; slow down.</source>
        <translation>Demasiadas peticiones desde esta página; ve más despacio.</translation>
    </message>
    <message>
        <source>The first question is not open yet.</source>
        <translation>La primera pregunta todavía no está abierta.</translation>
    </message>
    <message>
        <source>This question is closed: answers are no longer taken.</source>
        <translation>Esta pregunta está cerrada: ya no se aceptan respuestas.</translation>
    </message>
    <message>
        <source>That answer is for another question; the question open now is &quot;%1&quot;.</source>
        <translation>Esa respuesta es de otra pregunta; la pregunta abierta ahora es &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>You have changed this answer %1 times, the most allowed; your last answer counts.</source>
        <translation>Has cambiado esta respuesta %1 veces, el máximo permitido; cuenta tu última respuesta.</translation>
    </message>
    <message>
        <source>You did not answer this question.</source>
        <translation>No respondiste a esta pregunta.</translation>
    </message>
    <message>
        <source>The quiz has begun: close, reveal or go to the next question instead.</source>
        <translation>El cuestionario ya ha empezado: en lugar de eso, cierra la pregunta, revela la respuesta o pasa a la siguiente pregunta.</translation>
    </message>
    <message>
        <source>No question is open.</source>
        <translation>No hay ninguna pregunta abierta.</translation>
    </message>
    <message>
        <source>Close the question before revealing it.</source>
        <translation>Cierra la pregunta antes de revelar la respuesta.</translation>
    </message>
    <message>
        <source>No closed question to reveal.</source>
        <translation>No hay ninguna pregunta cerrada que revelar.</translation>
    </message>
    <message>
        <source>Reveal this question before going on.</source>
        <translation>Revela esta pregunta antes de continuar.</translation>
    </message>
    <message>
        <source>No student %1 is in the class.</source>
        <translation>No hay ningún estudiante %1 en la clase.</translation>
    </message>
    <message>
        <source>close, not within the tolerance</source>
        <translation>cerca, pero fuera de la tolerancia</translation>
    </message>
    <message>
        <source>other</source>
        <comment>histogram bar</comment>
        <translation>otra</translation>
    </message>
    <message>
        <source>--bind: &apos;%1&apos; is not an address; give one of this machine&apos;s addresses, like 192.168.1.20, or localhost</source>
        <translation>--bind: «%1» no es una dirección; indica una de las direcciones de este ordenador, como 192.168.1.20, o localhost</translation>
    </message>
    <message>
        <source>--bind: &apos;%1&apos; would listen on every address, public ones too; give the classroom network&apos;s address</source>
        <translation>--bind: «%1» escucharía en todas las direcciones, también en las públicas; indica la dirección de la red del aula</translation>
    </message>
    <message>
        <source>--bind: %1 is a public address; a class quiz listens only on a private (classroom) network: 10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10 or loopback</source>
        <translation>--bind: %1 es una dirección pública; un cuestionario de clase solo escucha en una red privada (la del aula): 10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10 o loopback</translation>
    </message>
    <message>
        <source>class quiz: cannot listen on %1 port %2: %3</source>
        <translation>cuestionario de clase: no se puede escuchar en %1, puerto %2: %3</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule sum: %1 = %2</source>
        <translation>lockstep::reduce, regla sum: %1 = %2</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule mean: (%1) / %2 = %3</source>
        <translation>lockstep::reduce, regla mean: (%1) / %2 = %3</translation>
    </message>
    <message>
        <source>lockstep::reduce, rule weighted-mean: (%1) / (%2) = %3</source>
        <translation>lockstep::reduce, regla weighted-mean: (%1) / (%2) = %3</translation>
    </message>
    <message>
        <source>the engine&apos;s %1 (%2) gives %3</source>
        <translation>%1 del motor (%2) da %3</translation>
    </message>
    <message>
        <source>no quiz bank &apos;%1&apos; (known: %2, or give a file)</source>
        <translation>no existe el banco de preguntas «%1» (conocidos: %2; o indica un archivo)</translation>
    </message>
    <message>
        <source>found from the program&apos;s folder</source>
        <translation>localizados a partir de la carpeta del programa</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>no encontrados</translation>
    </message>
    <message>
        <source>resources: not found (expected in %1; set LOCKSTEP_RESOURCES to the folder that holds lessons/, scenarios/ and quizzes/)
</source>
        <translation>recursos: no encontrados (se esperaban en %1; define LOCKSTEP_RESOURCES como la carpeta que contiene lessons/, scenarios/ y quizzes/)
</translation>
    </message>
    <message>
        <source>resources: %1 (%2)
</source>
        <translation>recursos: %1 (%2)
</translation>
    </message>
    <message>
        <source>your own lessons: %1
</source>
        <translation>tus propias lecciones: %1
</translation>
    </message>
    <message>
        <source>your own lessons: %1 (none yet)
</source>
        <translation>tus propias lecciones: %1 (todavía ninguna)
</translation>
    </message>
    <message>
        <source>a student profile needs a name</source>
        <translation>un perfil de estudiante necesita un nombre</translation>
    </message>
    <message>
        <source>a student&apos;s name has at most %1 characters</source>
        <translation>el nombre de un estudiante tiene como máximo %1 caracteres</translation>
    </message>
    <message>
        <source>%1: %2; it was set aside as %1.unreadable and progress starts afresh</source>
        <translation>%1: %2; se ha apartado como %1.unreadable y el progreso empieza de cero</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>no se puede leer</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>no es JSON válido (%1)</translation>
    </message>
    <message>
        <source>version must be %1</source>
        <translation>la versión debe ser %1</translation>
    </message>
    <message>
        <source>%1: cannot create the folder</source>
        <translation>%1: no se puede crear la carpeta</translation>
    </message>
    <message>
        <source>%1: cannot write progress: %2</source>
        <translation>%1: no se puede guardar el progreso: %2</translation>
    </message>
    <message>
        <source>You answered %1%2.</source>
        <translation>Respondiste %1%2.</translation>
    </message>
    <message>
        <source>Correct.</source>
        <translation>Correcto.</translation>
    </message>
    <message>
        <source>If you meant %1%, write the % sign, or write it as a fraction: %2.</source>
        <translation>Si querías decir %1%, escribe el signo %, o escríbelo como fracción: %2.</translation>
    </message>
    <message>
        <source>Close, but not close enough (within %1 of the answer counts): check your rounding, and keep more digits until the last step.</source>
        <translation>Cerca, pero no lo suficiente (cuenta si está a menos de %1 de la respuesta): revisa el redondeo y conserva más cifras hasta el último paso.</translation>
    </message>
    <message>
        <source>That is not it yet.</source>
        <translation>Todavía no es eso.</translation>
    </message>
    <message>
        <source>Correct: that is the order.</source>
        <translation>Correcto: ese es el orden.</translation>
    </message>
    <message>
        <source>%1 of the %2 items are in the right place.</source>
        <translation>%1 de los %2 elementos están en su sitio.</translation>
    </message>
    <message>
        <source>You chose (%1): that is not the best answer.</source>
        <translation>Elegiste (%1): esa no es la mejor respuesta.</translation>
    </message>
    <message>
        <source>%1 of your choices is right</source>
        <translation>%1 de tus respuestas es correcta</translation>
    </message>
    <message>
        <source>%1 of your choices are right</source>
        <translation>%1 de tus respuestas son correctas</translation>
    </message>
    <message>
        <source>%1 is not</source>
        <comment>of your choices</comment>
        <translation>%1 no lo es</translation>
    </message>
    <message>
        <source>%1 are not</source>
        <comment>of your choices</comment>
        <translation>%1 no lo son</translation>
    </message>
    <message>
        <source>%1 right one is missing</source>
        <translation>falta %1 respuesta correcta</translation>
    </message>
    <message>
        <source>%1 right ones are missing</source>
        <translation>faltan %1 respuestas correctas</translation>
    </message>
    <message>
        <source>%1, %2, and %3.</source>
        <comment>choices: right, wrong, missing</comment>
        <translation>%1, %2 y %3.</translation>
    </message>
    <message>
        <source>Put these in order.</source>
        <translation>Ordena estos elementos.</translation>
    </message>
    <message>
        <source>(in %1)</source>
        <comment>the answer&apos;s unit</comment>
        <translation>(en %1)</translation>
    </message>
    <message>
        <source>%1: cannot read the list of students</source>
        <translation>%1: no se puede leer la lista de estudiantes</translation>
    </message>
    <message>
        <source>%1: names no student (one per line)</source>
        <translation>%1: no nombra a ningún estudiante (uno por línea)</translation>
    </message>
    <message>
        <source>This teacher&apos;s link was used already, or is not this quiz&apos;s. Each link opens the teacher&apos;s page once: open the newest one lockstep printed.</source>
        <translation>Este enlace de docente ya se usó o no es de este cuestionario. Cada enlace abre la página del docente una sola vez: abre el más reciente que imprimió lockstep.</translation>
    </message>
    <message>
        <source>The teacher&apos;s page is at /teacher.</source>
        <translation>La página del docente está en /teacher.</translation>
    </message>
    <message>
        <source>The teacher&apos;s page opens from the teacher&apos;s link that lockstep printed; each link works once.</source>
        <translation>La página del docente se abre con el enlace de docente que imprimió lockstep; cada enlace sirve una sola vez.</translation>
    </message>
    <message>
        <source>The teacher&apos;s API answers only its own page.</source>
        <translation>La API del docente solo responde a su propia página.</translation>
    </message>
    <message>
        <source>Live updates are for the students who joined and the teacher: the address needs their token.</source>
        <translation>Las actualizaciones en vivo son para los estudiantes que se unieron y para el docente: la dirección necesita su token.</translation>
    </message>
    <message>
        <source>Too many connections from your address (at most %1); close some pages and try again.</source>
        <translation>Demasiadas conexiones desde tu dirección (como máximo %1); cierra algunas páginas e inténtalo de nuevo.</translation>
    </message>
    <message>
        <source>The class server is full; try again in a moment.</source>
        <translation>El servidor de la clase está lleno; inténtalo de nuevo en un momento.</translation>
    </message>
    <message>
        <source>The request took too long to arrive: at most %1 s.</source>
        <translation>La petición tardó demasiado en llegar: como máximo %1 s.</translation>
    </message>
    <message>
        <source>Send one request at a time and wait for its answer.</source>
        <translation>Envía una petición cada vez y espera su respuesta.</translation>
    </message>
    <message>
        <source>The request&apos;s address is too long: at most %1 bytes.</source>
        <translation>La dirección de la petición es demasiado larga: como máximo %1 bytes.</translation>
    </message>
    <message>
        <source>The request&apos;s headers are too long: at most %1 bytes.</source>
        <translation>Las cabeceras de la petición son demasiado largas: como máximo %1 bytes.</translation>
    </message>
    <message>
        <source>The request&apos;s first line is not &quot;METHOD /path HTTP/1.1&quot;.</source>
        <translation>La primera línea de la petición no tiene la forma «MÉTODO /ruta HTTP/1.1».</translation>
    </message>
    <message>
        <source>The request has too many headers: at most %1.</source>
        <translation>La petición tiene demasiadas cabeceras: como máximo %1.</translation>
    </message>
    <message>
        <source>A header of the request is not &quot;Name: value&quot;.</source>
        <translation>Una cabecera de la petición no tiene la forma «Nombre: valor».</translation>
    </message>
    <message>
        <source>The request&apos;s Content-Length is not one number.</source>
        <translation>El Content-Length de la petición no es un único número.</translation>
    </message>
    <message>
        <source>Send the request&apos;s body with a Content-Length.</source>
        <translation>Envía el cuerpo de la petición con un Content-Length.</translation>
    </message>
    <message>
        <source>class journal %1: %2</source>
        <translation>diario de la clase %1: %2</translation>
    </message>
    <message>
        <source>it is already there; a journal is never written over (--resume goes on with it)</source>
        <translation>ya existe; un diario nunca se sobrescribe (--resume lo continúa)</translation>
    </message>
    <message>
        <source>line %1 is not a record of a class quiz</source>
        <translation>la línea %1 no es un registro de un cuestionario de clase</translation>
    </message>
    <message>
        <source>it does not begin with the start of a class quiz</source>
        <translation>no empieza con el inicio de un cuestionario de clase</translation>
    </message>
    <message>
        <source>The teacher&apos;s computer could not save this; try again in a moment.</source>
        <translation>El ordenador del docente no pudo guardar esto; inténtalo de nuevo en un momento.</translation>
    </message>
    <message>
        <source>it is a journal of another quiz (bank %1)</source>
        <translation>es el diario de otro cuestionario (banco %1)</translation>
    </message>
    <message>
        <source>a join is not the next student&apos;s</source>
        <translation>una entrada no es la del siguiente estudiante</translation>
    </message>
    <message>
        <source>an answer is from no student in it</source>
        <translation>una respuesta no es de ningún estudiante del diario</translation>
    </message>
    <message>
        <source>a record of an unknown kind &quot;%1&quot;</source>
        <translation>un registro de un tipo desconocido «%1»</translation>
    </message>
    <message>
        <source>a new join code is not one</source>
        <translation>un código nuevo para unirse no es válido</translation>
    </message>
    <message>
        <source>Too many wrong join codes were tried in this class, so the code has changed. Wait a minute, then type the code on the projector.</source>
        <translation>Se probaron demasiados códigos equivocados en esta clase, así que el código cambió. Espera un minuto y escribe el código del proyector.</translation>
    </message>
    <message>
        <source>The teacher removed this name from the quiz.</source>
        <translation>El docente quitó este nombre del cuestionario.</translation>
    </message>
    <message>
        <source>A name cannot hold invisible characters; type it with letters, digits and spaces.</source>
        <translation>Un nombre no puede tener caracteres invisibles; escríbelo con letras, cifras y espacios.</translation>
    </message>
    <message>
        <source>its start holds no join code, teacher&apos;s token and secret</source>
        <translation>su inicio no tiene código para unirse, token del docente ni secreto</translation>
    </message>
    <message>
        <source>This server answers only at the class&apos;s addresses.</source>
        <translation>Este servidor solo responde en las direcciones de la clase.</translation>
    </message>
    <message>
        <source>Send the request&apos;s body as JSON, with Content-Type: application/json.</source>
        <translation>Envía el cuerpo de la petición como JSON, con Content-Type: application/json.</translation>
    </message>
    <message>
        <source>Too many requests with a token that is not in this class came from this computer; wait a minute.</source>
        <translation>Desde este ordenador llegaron demasiadas peticiones con un token que no es de esta clase; espera un minuto.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be true or false.</source>
        <translation>«%1» debe ser true o false.</translation>
    </message>
    <message>
        <source>&quot;students&quot; must be a list of ids.</source>
        <translation>«students» debe ser una lista de identificadores.</translation>
    </message>
    <message>
        <source>&quot;students&quot; must name from one student to the whole class.</source>
        <translation>«students» debe nombrar desde un estudiante hasta toda la clase.</translation>
    </message>
    <message>
        <source>This question is revealed: go to the next one instead.</source>
        <translation>Esta pregunta ya está resuelta: pasa a la siguiente.</translation>
    </message>
    <message>
        <source>No question to skip.</source>
        <translation>No hay ninguna pregunta que saltar.</translation>
    </message>
    <message>
        <source>There is no question before this one.</source>
        <translation>No hay ninguna pregunta antes de esta.</translation>
    </message>
    <message>
        <source>A question&apos;s timer is from 0 (none) to %1 seconds.</source>
        <translation>El tiempo de una pregunta va de 0 (ninguno) a %1 segundos.</translation>
    </message>
    <message>
        <source>right</source>
        <translation>correcto</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>incorrecto</translation>
    </message>
    <message>
        <source>%1: %2 of %3 questions right.</source>
        <translation>%1: %2 de %3 preguntas correctas.</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Tu respuesta</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>La respuesta</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Por qué</translation>
    </message>
    <message>
        <source>The engine&apos;s working</source>
        <translation>El cálculo del motor</translation>
    </message>
    <message>
        <source>The teacher&apos;s computer could not save this; tell the teacher.</source>
        <translation>El ordenador del profesor no pudo guardar esto; avisa al profesor.</translation>
    </message>
    <message>
        <source>That name is not allowed in this class; choose another.</source>
        <translation>Ese nombre no está permitido en esta clase; elige otro.</translation>
    </message>
    <message>
        <source>the journal asks question &apos;%1&apos;, which bank &apos;%2&apos; does not have</source>
        <translation>el diario pregunta la pregunta «%1», que el banco «%2» no tiene</translation>
    </message>
    <message>
        <source>the journal names no questions</source>
        <translation>el diario no nombra ninguna pregunta</translation>
    </message>
    <message>
        <source>class journal %1, record %2: %3</source>
        <translation>diario de clase %1, registro %2: %3</translation>
    </message>
</context>
<context>
    <name>LockstepCli</name>
    <message>
        <source>--questions: bank &apos;%1&apos; has no question &apos;%2&apos; (it has %3)</source>
        <translation>--questions: el banco &apos;%1&apos; no tiene la pregunta &apos;%2&apos; (tiene %3)</translation>
    </message>
    <message>
        <source>--questions: &apos;%1&apos; is named twice</source>
        <translation>--questions: &apos;%1&apos; aparece dos veces</translation>
    </message>
    <message>
        <source>--questions: name at least one question</source>
        <translation>--questions: indica al menos una pregunta</translation>
    </message>
    <message>
        <source>--results: %1 already exists; choose a new file, so that the results in it are kept</source>
        <translation>--results: %1 ya existe; elige un archivo nuevo para que se conserven los resultados que contiene</translation>
    </message>
    <message>
        <source>cannot write the results to %1: %2</source>
        <translation>no se pueden escribir los resultados en %1: %2</translation>
    </message>
    <message>
        <source>expected: %1</source>
        <translation>se esperaba: %1</translation>
    </message>
    <message>
        <source>class serve: cannot set up the signal handler</source>
        <translation>class serve: no se puede configurar el manejador de señales</translation>
    </message>
    <message>
        <source>class quiz: %1, %2 questions
</source>
        <translation>cuestionario de clase: %1, %2 preguntas
</translation>
    </message>
    <message>
        <source>students: %1
</source>
        <translation>estudiantes: %1
</translation>
    </message>
    <message>
        <source>also: %1
</source>
        <translation>también: %1
</translation>
    </message>
    <message>
        <source>join code: %1
</source>
        <translation>código para unirse: %1
</translation>
    </message>
    <message>
        <source>teacher: %1
</source>
        <translation>docente: %1
</translation>
    </message>
    <message>
        <source>results: %1
</source>
        <translation>resultados: %1
</translation>
    </message>
    <message>
        <source>port %1; Ctrl+C ends the quiz
</source>
        <translation>puerto %1; Ctrl+C termina el cuestionario
</translation>
    </message>
    <message>
        <source>results: %1 answers of %2 students written to %3
</source>
        <translation>resultados: %1 respuestas de %2 estudiantes escritas en %3
</translation>
    </message>
    <message>
        <source>class: expected serve</source>
        <translation>class: se esperaba serve</translation>
    </message>
    <message>
        <source>class: unknown subcommand &apos;%1&apos; (serve)</source>
        <translation>class: subcomando desconocido &apos;%1&apos; (serve)</translation>
    </message>
    <message>
        <source>compare --sync takes one scenario file (or none: the built-in one)</source>
        <translation>compare --sync admite un archivo de escenario (o ninguno: el integrado)</translation>
    </message>
    <message>
        <source>--sync: each must be one of bsp, ssp, async, local, got &apos;%1&apos;</source>
        <translation>--sync: cada uno debe ser bsp, ssp, async o local; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--sync: &apos;%1&apos; is named twice</source>
        <translation>--sync: &apos;%1&apos; aparece dos veces</translation>
    </message>
    <message>
        <source>--sync: name two to four modes to compare, e.g. bsp,ssp,async,local</source>
        <translation>--sync: indica de dos a cuatro modos para comparar, p. ej. bsp,ssp,async,local</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>no se alcanzó</translation>
    </message>
    <message>
        <source>time to target loss</source>
        <translation>tiempo hasta el objetivo</translation>
    </message>
    <message>
        <source>energy to target loss</source>
        <translation>energía hasta el objetivo</translation>
    </message>
    <message>
        <source>total time</source>
        <translation>tiempo total</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>pérdida final</translation>
    </message>
    <message>
        <source>waiting per worker</source>
        <translation>espera por trabajador</translation>
    </message>
    <message>
        <source>bytes moved</source>
        <translation>bytes movidos</translation>
    </message>
    <message>
        <source>energy (modelled)</source>
        <translation>energía modelada</translation>
    </message>
    <message>
        <source>staleness (max, mean)</source>
        <translation>obsolescencia (máx, media)</translation>
    </message>
    <message>
        <source>replicas agree at the end</source>
        <translation>réplicas iguales al final</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>Ways of agreeing on %1 (&quot;%2&quot;), %3 workers, target loss %4
(ssp with staleness %5, local SGD averaging every %6 steps)

</source>
        <translation>Formas de ponerse de acuerdo en %1 (&quot;%2&quot;), %3 trabajadores, pérdida objetivo %4
(ssp con obsolescencia %5, SGD local que promedia cada %6 pasos)

</translation>
    </message>
    <message>
        <source>(built-in)</source>
        <translation>(integrado)</translation>
    </message>
    <message>
        <source>  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.
</source>
        <translation>  La energía usa una potencia supuesta por estado (ver docs/SCENARIO.md), no un medidor.
</translation>
    </message>
    <message>
        <source>%1: goes with --sync (compare SCENARIO --sync bsp,ssp,async,local)</source>
        <translation>%1: va con --sync (compare SCENARIO --sync bsp,ssp,async,local)</translation>
    </message>
    <message>
        <source>compare needs exactly two scenario files, e.g. compare a.json b.json</source>
        <translation>compare necesita exactamente dos archivos de escenario, p. ej. compare a.json b.json</translation>
    </message>
    <message>
        <source>compare: both runs must train (no steps were run)</source>
        <translation>compare: las dos ejecuciones deben entrenar (no se ejecutó ningún paso)</translation>
    </message>
    <message>
        <source>%1 s (step %2)</source>
        <translation>%1 s (paso %2)</translation>
    </message>
    <message>
        <source>workers (at the end)</source>
        <translation>trabajadores (al final)</translation>
    </message>
    <message>
        <source>useful samples</source>
        <translation>muestras útiles</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>goodput</source>
        <translation>rendimiento útil</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 muestras/s</translation>
    </message>
    <message>
        <source>synchronisation</source>
        <translation>sincronización</translation>
    </message>
    <message>
        <source>%1 s per worker</source>
        <translation>%1 s por trabajador</translation>
    </message>
    <message>
        <source>waiting</source>
        <comment>time spent</comment>
        <translation>espera</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>puntos de control</translation>
    </message>
    <message>
        <source>failures</source>
        <translation>fallos</translation>
    </message>
    <message>
        <source>lost work</source>
        <translation>trabajo perdido</translation>
    </message>
    <message>
        <source>%1 steps, %2 worker-s</source>
        <translation>%1 pasos, %2 trabajador-s</translation>
    </message>
    <message>
        <source>dropped gradients</source>
        <translation>gradientes descartados</translation>
    </message>
    <message>
        <source>energy per useful sample</source>
        <translation>energía por muestra útil</translation>
    </message>
    <message>
        <source>Comparing A: %1 (&quot;%2&quot;)
      and B: %3 (&quot;%4&quot;), target loss %5

</source>
        <translation>Comparación de A: %1 (&quot;%2&quot;)
             y B: %3 (&quot;%4&quot;), pérdida objetivo %5

</translation>
    </message>
    <message>
        <source>
  To reach loss %1, B takes %2x the time and %3x the energy of A.
</source>
        <translation>
  Para llegar a la pérdida %1, B necesita %2x el tiempo y %3x la energía de A.
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
idioma (una opción de todos los comandos, antes o después del comando):
  --language de|es|en             mensajes, ayuda, lecciones y cuestionarios en alemán, español o
                                  inglés; por defecto, el idioma que indiquen LANGUAGE, LC_ALL,
                                  LC_MESSAGES o LANG; si no, inglés
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli run [SCENARIO.json] [flags]

Trains the scenario&apos;s model (the built-in one without a file) with its workers and
reports the time on the run&apos;s clock, the speedup over one worker, the time spent
communicating and waiting, and the final loss and accuracy. Flags override the
scenario. Under mpirun with --transport mpi, each process is one worker.
</source>
        <translation>uso: lockstep-cli run [SCENARIO.json] [opciones]

Entrena el modelo del escenario (el integrado si no hay archivo) con sus trabajadores e
informa del tiempo en el reloj de la ejecución, la aceleración respecto a un solo trabajador,
el tiempo dedicado a comunicarse y a esperar, y la pérdida y la precisión finales. Las
opciones sustituyen a las del escenario. Con mpirun y --transport mpi, cada proceso es un
trabajador.
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
        <translation>uso: lockstep-cli sweep [SCENARIO.json] --workers 1,2,4,8 [opciones] [--json]

Ejecuta el mismo escenario una vez por cada número de trabajadores y muestra el tiempo, la
aceleración y la eficiencia de cada uno: la curva de aceleración de la vista Aceleración.

opciones: --workers LIST  --steps N  --seed N  --clock modelled|measured
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
        <translation>uso: lockstep-cli reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]

Combina los valores como el motor combina los gradientes de los trabajadores y muestra
el resultado. weighted-mean necesita --weights: las muestras que hay detrás de cada valor.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli checkpoints DIR [--json]

Lists each checkpoint in DIR: complete, partial or corrupt, and why.
</source>
        <translation>uso: lockstep-cli checkpoints DIR [--json]

Enumera cada punto de control de DIR: completo, parcial o corrupto, y por qué.
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
        <translation>uso: lockstep-cli moves [SCENARIO.json] [--parallelism data|pipeline|tensor|hybrid]
                        [--stages P] [--microbatches M] [--schedule S]
                        [--replicas D] [--workers N] [--batch N] [--layers L]
                        [--steps N] [--algorithm A] [--json]

Muestra los bytes que mueve cada tipo de paralelismo por paso y por enlace, y el tiempo
que esperan los trabajadores, para el mismo modelo.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli validate FILE

Checks a scenario file, its dataset and its initial parameters. Exits 0 and prints
&apos;valid&apos;, or prints what is wrong, naming the field and the allowed values.
</source>
        <translation>uso: lockstep-cli validate FILE

Comprueba un archivo de escenario, su conjunto de datos y sus parámetros iniciales. Sale con
0 y muestra &apos;válido&apos;, o muestra qué falla, con el nombre del campo y los valores permitidos.
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
        <translation>uso: lockstep-cli bench allreduce [--algorithm ring|tree|parameter-server]
                                  [--workers N] [--bytes N] [--iterations N] [--json]
     mpirun -np N lockstep-cli bench allreduce --transport mpi [--algorithm A]
                                  [--bytes N] [--iterations N] [--json]

Cronometra all-reduce de búferes reales entre hilos (o procesos) y muestra el ancho de banda
del algoritmo y del bus junto al ancho de banda de copia de memoria de este equipo.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli bench train [--layers 2,64,64,2] [--batch 32] [--steps 2000]
                                [--workers 1] [--threads N] [--json]

Times real training steps and prints the samples per second.
</source>
        <translation>uso: lockstep-cli bench train [--layers 2,64,64,2] [--batch 32] [--steps 2000]
                              [--workers 1] [--threads N] [--json]

Cronometra pasos de entrenamiento reales e indica cuántas muestras procesa por segundo.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli %1 SUBCOMMAND [ARGS]
</source>
        <translation>uso: lockstep-cli %1 SUBCOMMAND [ARGS]
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli class serve BANK [flags]
</source>
        <translation>uso: lockstep-cli class serve BANK [opciones]
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
lecciones y cuestionarios (recursos de --root DIR, $LOCKSTEP_RESOURCES o los instalados; tus
propias lecciones, a su lado, de --own-lessons DIR o, si no, de ~/.local/share/Lockstep/lessons):
  lessons check [--root DIR]      cada lección, escenario, enlace y banco de preguntas; sale con 1
                                  y explica los motivos
  lessons list [--root DIR]       las lecciones en orden, con lo que trata cada una
  lessons calculator --one-worker-s 40 --workers 4 --communication-s 6
                                  el ejemplo resuelto: tiempo total y aceleración según el motor
  lessons study LESSON            los modelos de la lección de debate: pérdida, cómputo, energía
  quiz export BANK --format moodle-xml|gift|csv [--students FILE] [--variants N] [--out FILE]
  quiz worksheet BANK [--students FILE | --variants N] --out SHEET.pdf [--key KEY.pdf]
                                  una hoja por estudiante con sus propios números, y las soluciones
  quiz ask BANK QUESTION --student NAME        la versión de una pregunta para un estudiante
  quiz check BANK QUESTION --student NAME --answer TEXT
                                  el veredicto y los comentarios para una respuesta escrita
</translation>
    </message>
    <message>
        <source>left out: %1</source>
        <translation>omitida: %1</translation>
    </message>
    <message numerus="yes">
        <source>lessons check: %n problem(s) in %1</source>
        <translation>
            <numerusform>lessons check: %n problema en %1</numerusform>
            <numerusform>lessons check: %n problemas en %1</numerusform>
        </translation>
    </message>
    <message>
        <source>ok: %1 lessons, %2 quiz banks, %3 questions in %4
</source>
        <translation>ok: %1 lecciones, %2 bancos de preguntas, %3 preguntas en %4
</translation>
    </message>
    <message numerus="yes">
        <source>ok: %n of your own lesson(s) in %1
</source>
        <translation>
            <numerusform>ok: %n lección propia en %1
</numerusform>
            <numerusform>ok: %n lecciones propias en %1
</numerusform>
        </translation>
    </message>
    <message>
        <source>your own lessons, from %1:
</source>
        <translation>tus propias lecciones, de %1:
</translation>
    </message>
    <message numerus="yes">
        <source>%1. %2 (%3); %n exercise(s)
   %4
   syllabus: %5
</source>
        <translation>
            <numerusform>%1. %2 (%3); %n ejercicio
   %4
   temario: %5
</numerusform>
            <numerusform>%1. %2 (%3); %n ejercicios
   %4
   temario: %5
</numerusform>
        </translation>
    </message>
    <message>
        <source>one worker: %1 s; %2 workers: %3 s of compute each + %4 s of communication = %5 s
speedup %6 (ideal %2), efficiency %7
</source>
        <translation>un trabajador: %1 s; %2 trabajadores: %3 s de cómputo cada uno + %4 s de comunicación = %5 s
aceleración %6 (ideal %2), eficiencia %7
</translation>
    </message>
    <message>
        <source>workers  speedup
</source>
        <translation>trabajadores  aceleración
</translation>
    </message>
    <message>
        <source>lessons study: no lesson &apos;%1&apos;</source>
        <translation>lessons study: no existe la lección &apos;%1&apos;</translation>
    </message>
    <message>
        <source>lessons study: lesson &apos;%1&apos; has no study</source>
        <translation>lessons study: la lección &apos;%1&apos; no tiene estudio</translation>
    </message>
    <message>
        <source>quiz export: --format is required (moodle-xml, gift or csv)</source>
        <translation>quiz export: --format es obligatorio (moodle-xml, gift o csv)</translation>
    </message>
    <message>
        <source>--format: must be one of moodle-xml, gift, csv, got &apos;%1&apos;</source>
        <translation>--format: debe ser moodle-xml, gift o csv; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: cannot write the export</source>
        <translation>%1: no se puede escribir la exportación</translation>
    </message>
    <message>
        <source>quiz worksheet: --out SHEET.pdf is required</source>
        <translation>quiz worksheet: --out SHEET.pdf es obligatorio</translation>
    </message>
    <message>
        <source>quiz worksheet: give --students or --variants, not both</source>
        <translation>quiz worksheet: indica --students o --variants, no ambos</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n page(s), one per variant
</source>
        <translation>
            <numerusform>%1: %n página, una por variante
</numerusform>
            <numerusform>%1: %n páginas, una por variante
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n page(s), one per student
</source>
        <translation>
            <numerusform>%1: %n página, una por estudiante
</numerusform>
            <numerusform>%1: %n páginas, una por estudiante
</numerusform>
        </translation>
    </message>
    <message>
        <source>bank &apos;%1&apos; has no question &apos;%2&apos; (known: %3)</source>
        <translation>el banco &apos;%1&apos; no tiene la pregunta &apos;%2&apos; (existen: %3)</translation>
    </message>
    <message>
        <source>--student NAME is required: each student gets their own numbers</source>
        <translation>--student NAME es obligatorio: cada estudiante recibe sus propios números</translation>
    </message>
    <message>
        <source>answer: %1
</source>
        <translation>respuesta: %1
</translation>
    </message>
    <message>
        <source>correct</source>
        <comment>verdict</comment>
        <translation>correcta</translation>
    </message>
    <message>
        <source>near</source>
        <comment>verdict</comment>
        <translation>cercana</translation>
    </message>
    <message>
        <source>wrong</source>
        <comment>verdict</comment>
        <translation>incorrecta</translation>
    </message>
    <message>
        <source>unparseable</source>
        <comment>verdict</comment>
        <translation>no interpretable</translation>
    </message>
    <message>
        <source>--answer TEXT is required</source>
        <translation>--answer TEXT es obligatorio</translation>
    </message>
    <message>
        <source>lessons: expected check, list, calculator or study</source>
        <translation>lessons: se esperaba check, list, calculator o study</translation>
    </message>
    <message>
        <source>lessons: unknown subcommand &apos;%1&apos; (check, list, calculator or study)</source>
        <translation>lessons: subcomando desconocido &apos;%1&apos; (check, list, calculator o study)</translation>
    </message>
    <message>
        <source>quiz: expected export, worksheet, ask or check</source>
        <translation>quiz: se esperaba export, worksheet, ask o check</translation>
    </message>
    <message>
        <source>quiz: unknown subcommand &apos;%1&apos; (export, worksheet, ask or check)</source>
        <translation>quiz: subcomando desconocido &apos;%1&apos; (export, worksheet, ask o check)</translation>
    </message>
    <message>
        <source>%1: must be one of %2, got &apos;%3&apos;</source>
        <translation>%1: debe ser uno de %2; se recibió &apos;%3&apos;</translation>
    </message>
    <message>
        <source>expected at most one scenario file, got &apos;%1&apos; as well</source>
        <translation>se esperaba como máximo un archivo de escenario, pero también se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--dataset: must be one of %1, or a file ending in .csv, got &apos;%2&apos;</source>
        <translation>--dataset: debe ser uno de %1 o un archivo terminado en .csv; se recibió &apos;%2&apos;</translation>
    </message>
    <message>
        <source>--shuffle: must be on or off, got &apos;%1&apos;</source>
        <translation>--shuffle: debe ser on u off; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: goes with --sync %2</source>
        <translation>%1: va con --sync %2</translation>
    </message>
    <message>
        <source>%1: needs a checkpoint policy (--checkpoint-every K)</source>
        <translation>%1: necesita una política de puntos de control (--checkpoint-every K)</translation>
    </message>
    <message>
        <source>%1: no %2 (not a directory written by lockstep-cli run --checkpoint-dir)</source>
        <translation>%1: no hay %2 (no es un directorio escrito por lockstep-cli run --checkpoint-dir)</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: %2 workers, %3 steps, %4 all-reduce, %5 of gradients, %6 clock
</source>
        <translation>Ejecución de Lockstep &quot;%1&quot;: %2 trabajadores, %3 pasos, all-reduce %4, %5 de los gradientes, reloj %6
</translation>
    </message>
    <message>
        <source>Open MPI&apos;s MPI_Allreduce</source>
        <translation>MPI_Allreduce de Open MPI</translation>
    </message>
    <message>
        <source>processes</source>
        <translation>procesos</translation>
    </message>
    <message>
        <source>%1 over Open MPI, on %2 host (%3); times measured</source>
        <translation>%1 con Open MPI, en %2 equipo (%3); tiempos medidos</translation>
    </message>
    <message>
        <source>%1 over Open MPI, on %2 hosts (%3); times measured</source>
        <translation>%1 con Open MPI, en %2 equipos (%3); tiempos medidos</translation>
    </message>
    <message>
        <source>resumed from</source>
        <translation>reanudada desde</translation>
    </message>
    <message>
        <source>step %1 (%2 restore)</source>
        <translation>paso %1 (restauración %2)</translation>
    </message>
    <message>
        <source>%1 s  (one worker, same work: %2 s)</source>
        <translation>%1 s  (un trabajador, el mismo trabajo: %2 s)</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>aceleración</translation>
    </message>
    <message>
        <source>%1   efficiency %2 %</source>
        <translation>%1   eficiencia %2 %</translation>
    </message>
    <message>
        <source>per worker</source>
        <translation>por trabajador</translation>
    </message>
    <message>
        <source>compute %1 s, communication %2 s, waiting %3 s</source>
        <translation>cómputo %1 s, comunicación %2 s, espera %3 s</translation>
    </message>
    <message>
        <source>checkpoints</source>
        <translation>puntos de control</translation>
    </message>
    <message>
        <source>%1 committed, %2 bytes, %3 s per worker</source>
        <translation>%1 guardados, %2 bytes, %3 s por trabajador</translation>
    </message>
    <message>
        <source>not known (inside Open MPI&apos;s MPI_Allreduce)</source>
        <translation>desconocido (dentro de MPI_Allreduce de Open MPI)</translation>
    </message>
    <message>
        <source>%1   accuracy %2 %</source>
        <translation>%1   precisión %2 %</translation>
    </message>
    <message>
        <source>loss by step</source>
        <translation>pérdida por paso</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>réplicas iguales</translation>
    </message>
    <message>
        <source>not checked (times only: no parameters were trained)</source>
        <translation>sin comprobar (solo tiempos: no se entrenó ningún parámetro)</translation>
    </message>
    <message>
        <source>yes (every replica&apos;s parameters hash the same)</source>
        <translation>sí (los parámetros de todas las réplicas tienen el mismo hash)</translation>
    </message>
    <message>
        <source>NO: the replicas have drifted apart</source>
        <translation>NO: las réplicas se han separado</translation>
    </message>
    <message>
        <source>checkpoints (%1)</source>
        <translation>puntos de control (%1)</translation>
    </message>
    <message>
        <source>%1: holds another run&apos;s %2; give this run an empty directory, or continue that run with lockstep-cli resume %1</source>
        <translation>%1: contiene %2 de otra ejecución; usa un directorio vacío para esta ejecución o continúa aquella con lockstep-cli resume %1</translation>
    </message>
    <message>
        <source>--checkpoint-dir: needs a checkpoint policy (--checkpoint-every K, or checkpoint.every in the scenario)</source>
        <translation>--checkpoint-dir: necesita una política de puntos de control (--checkpoint-every K, o checkpoint.every en el escenario)</translation>
    </message>
    <message>
        <source>%1: cannot create the checkpoint directory</source>
        <translation>%1: no se puede crear el directorio de puntos de control</translation>
    </message>
    <message>
        <source>--checkpoint-every: needs --checkpoint-dir DIR</source>
        <translation>--checkpoint-every: necesita --checkpoint-dir DIR</translation>
    </message>
    <message>
        <source>checkpoint: a run over processes checkpoints into a directory every computer reaches; name it with --checkpoint-dir DIR</source>
        <translation>checkpoint: una ejecución con procesos guarda sus puntos de control en un directorio al que llegan todos los equipos; indícalo con --checkpoint-dir DIR</translation>
    </message>
    <message>
        <source>note: skipped %1</source>
        <translation>nota: se omitió %1</translation>
    </message>
    <message>
        <source>note: no complete checkpoint in %1: starting from step 0</source>
        <translation>nota: no hay ningún punto de control completo en %1: se empieza desde el paso 0</translation>
    </message>
    <message>
        <source>--algorithm: mpi-allreduce is Open MPI&apos;s own all-reduce, so it needs --transport mpi (under mpirun)</source>
        <translation>--algorithm: mpi-allreduce es el all-reduce propio de Open MPI, así que necesita --transport mpi (con mpirun)</translation>
    </message>
    <message>
        <source>(checkpoints go to a scratch directory, removed at the end; --checkpoint-dir DIR keeps them)
</source>
        <translation>(los puntos de control van a un directorio temporal que se borra al final; --checkpoint-dir DIR los conserva)
</translation>
    </message>
    <message>
        <source>resume needs exactly one checkpoint directory</source>
        <translation>resume necesita exactamente un directorio de puntos de control</translation>
    </message>
    <message>
        <source>%1: not a directory</source>
        <translation>%1: no es un directorio</translation>
    </message>
    <message>
        <source>note: removed the leftover temporary file %1</source>
        <translation>nota: se borró el archivo temporal sobrante %1</translation>
    </message>
    <message>
        <source>note: skipped %1 (%2: %3)</source>
        <translation>nota: se omitió %1 (%2: %3)</translation>
    </message>
    <message>
        <source>checkpoints needs exactly one checkpoint directory</source>
        <translation>checkpoints necesita exactamente un directorio de puntos de control</translation>
    </message>
    <message>
        <source>no checkpoints in %1
</source>
        <translation>no hay puntos de control en %1
</translation>
    </message>
    <message>
        <source>%1  step %2  %3  %4
</source>
        <translation>%1  paso %2  %3  %4
</translation>
    </message>
    <message>
        <source>leftover temporary file: %1
</source>
        <translation>archivo temporal sobrante: %1
</translation>
    </message>
    <message>
        <source>sweep needs --workers, e.g. --workers 1,2,4,8</source>
        <translation>sweep necesita --workers, p. ej. --workers 1,2,4,8</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>trabajadores</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>tiempo (s)</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>eficiencia</translation>
    </message>
    <message>
        <source>reduce takes no file; unexpected &apos;%1&apos;</source>
        <translation>reduce no admite archivos; no se esperaba &apos;%1&apos;</translation>
    </message>
    <message>
        <source>reduce needs --values, e.g. --values 2,4</source>
        <translation>reduce necesita --values, p. ej. --values 2,4</translation>
    </message>
    <message>
        <source>--rule weighted-mean needs --weights (the samples behind each value), e.g. --weights 30,10</source>
        <translation>--rule weighted-mean necesita --weights (las muestras que hay detrás de cada valor), p. ej. --weights 30,10</translation>
    </message>
    <message>
        <source>--weights: needs one weight per value (%1), got %2</source>
        <translation>--weights: se necesita un peso por valor (%1); se recibieron %2</translation>
    </message>
    <message>
        <source>validate needs exactly one scenario file</source>
        <translation>validate necesita exactamente un archivo de escenario</translation>
    </message>
    <message>
        <source>%1: valid
</source>
        <translation>%1: válido
</translation>
    </message>
    <message>
        <source>--workers: over Open MPI every process is one worker; start as many as you want with mpirun -np N</source>
        <translation>--workers: con Open MPI cada proceso es un trabajador; inicia tantos como quieras con mpirun -np N</translation>
    </message>
    <message>
        <source>%1 all-reduce, %2 workers, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s, memcpy %7 GB/s
</source>
        <translation>all-reduce %1, %2 trabajadores, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s, memcpy %7 GB/s
</translation>
    </message>
    <message>
        <source>training: %1 samples/s (%2 steps of %3 samples x %4 workers in %5 s)
</source>
        <translation>entrenamiento: %1 muestras/s (%2 pasos de %3 muestras x %4 trabajadores en %5 s)
</translation>
    </message>
    <message>
        <source>bench: unknown kind &apos;%1&apos; (allreduce or train)</source>
        <translation>bench: tipo desconocido &apos;%1&apos; (allreduce o train)</translation>
    </message>
    <message>
        <source>needs a value (%1)</source>
        <translation>necesita un valor (%1)</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (try lockstep-cli --help)</source>
        <translation>comando desconocido &apos;%1&apos; (prueba lockstep-cli --help)</translation>
    </message>
    <message>
        <source>%1 all-reduce over Open MPI, %2 ranks, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s
</source>
        <translation>all-reduce %1 con Open MPI, %2 rangos, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 GB/s
</translation>
    </message>
    <message>
        <source>Open MPI&apos;s own MPI_Allreduce, same buffers:  %1 ms, algbw %2 GB/s, busbw %3 GB/s
</source>
        <translation>MPI_Allreduce propio de Open MPI, mismos búferes:  %1 ms, algbw %2 GB/s, busbw %3 GB/s
</translation>
    </message>
    <message>
        <source>largest difference between the two sums: %1
</source>
        <translation>mayor diferencia entre las dos sumas: %1
</translation>
    </message>
    <message>
        <source>--transport mpi: this lockstep-cli was built without Open MPI (install libopenmpi-dev and openmpi-bin, then configure and build again)</source>
        <translation>--transport mpi: este lockstep-cli se compiló sin Open MPI (instala libopenmpi-dev y openmpi-bin, y vuelve a configurar y compilar)</translation>
    </message>
    <message>
        <source>unknown option %1</source>
        <translation>opción desconocida %1</translation>
    </message>
    <message>
        <source>%1 takes no value</source>
        <translation>%1 no admite ningún valor</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 necesita un valor</translation>
    </message>
    <message>
        <source>%1: expected a whole number between %2 and %3, got &apos;%4&apos;</source>
        <translation>%1: se esperaba un número entero entre %2 y %3; se recibió &apos;%4&apos;</translation>
    </message>
    <message>
        <source>%1: expected a number between %2 and %3, got &apos;%4&apos;</source>
        <translation>%1: se esperaba un número entre %2 y %3; se recibió &apos;%4&apos;</translation>
    </message>
    <message>
        <source>%1: expected whole numbers between %2 and %3 separated by commas, got &apos;%4&apos; in &apos;%5&apos;</source>
        <translation>%1: se esperaban números enteros entre %2 y %3 separados por comas; se recibió &apos;%4&apos; en &apos;%5&apos;</translation>
    </message>
    <message>
        <source>%1: too many values (at most %2)</source>
        <translation>%1: demasiados valores (como máximo %2)</translation>
    </message>
    <message>
        <source>%1: expected numbers separated by commas, got &apos;%2&apos; in &apos;%3&apos;</source>
        <translation>%1: se esperaban números separados por comas; se recibió &apos;%2&apos; en &apos;%3&apos;</translation>
    </message>
    <message>
        <source>--trace-detail: goes with --trace FILE</source>
        <translation>--trace-detail: va con --trace FILE</translation>
    </message>
    <message>
        <source>--trace-detail: must be rounds or phases, got &apos;%1&apos;</source>
        <translation>--trace-detail: debe ser rounds o phases; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>capa %1</translation>
    </message>
    <message>
        <source>layers %1-%2</source>
        <translation>capas %1-%2</translation>
    </message>
    <message>
        <source>--parallelism: must be one of data, pipeline, tensor, hybrid, got &apos;%1&apos;</source>
        <translation>--parallelism: debe ser data, pipeline, tensor o hybrid; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: needs --parallelism pipeline, tensor or hybrid (or a &quot;parallelism&quot; object in the scenario)</source>
        <translation>%1: necesita --parallelism pipeline, tensor o hybrid (o un objeto &quot;parallelism&quot; en el escenario)</translation>
    </message>
    <message>
        <source>--schedule: must be one of fill-drain, 1f1b, got &apos;%1&apos;</source>
        <translation>--schedule: debe ser fill-drain o 1f1b; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--replicas: only a hybrid run has data-parallel replicas of its pipeline (--parallelism hybrid)</source>
        <translation>--replicas: solo una ejecución hybrid tiene réplicas de su pipeline con paralelismo de datos (--parallelism hybrid)</translation>
    </message>
    <message>
        <source>%1: checkpoints are written by data-parallel runs only for now</source>
        <translation>%1: por ahora, solo las ejecuciones con paralelismo de datos escriben puntos de control</translation>
    </message>
    <message>
        <source>%1 replica</source>
        <translation>%1 réplica</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 réplicas</translation>
    </message>
    <message>
        <source>%1 stage</source>
        <translation>%1 etapa</translation>
    </message>
    <message>
        <source>%1 stages</source>
        <translation>%1 etapas</translation>
    </message>
    <message>
        <source>%1 micro-batch</source>
        <translation>%1 microlote</translation>
    </message>
    <message>
        <source>%1 micro-batches</source>
        <translation>%1 microlotes</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: %2, %3, %4, %5 clock
</source>
        <translation>Ejecución de Lockstep &quot;%1&quot;: %2, %3, %4, reloj %5
</translation>
    </message>
    <message>
        <source>%1 step</source>
        <translation>%1 paso</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 pasos</translation>
    </message>
    <message>
        <source>stages</source>
        <translation>etapas</translation>
    </message>
    <message>
        <source>Lockstep run &quot;%1&quot;: tensor, every layer split across %2 workers, %3 steps, %4 clock
</source>
        <translation>Ejecución de Lockstep &quot;%1&quot;: tensor, cada capa dividida entre %2 trabajadores, %3 pasos, reloj %4
</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>burbuja</translation>
    </message>
    <message>
        <source>%1 % of stage time idle (equal stages, free messages: (P-1)/(M+P-1) = %2 %)</source>
        <translation>%1 % del tiempo de las etapas sin trabajar (etapas iguales, mensajes sin coste: (P-1)/(M+P-1) = %2 %)</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>en vuelo</translation>
    </message>
    <message>
        <source>at most %1 micro-batches&apos; activations held by one stage</source>
        <translation>como máximo, una etapa guarda las activaciones de %1 microlotes</translation>
    </message>
    <message>
        <source>%1 (activations %2, activation gradients %3, gradients %4)</source>
        <translation>%1 (activaciones %2, gradientes de activación %3, gradientes %4)</translation>
    </message>
    <message>
        <source>%1 (layer outputs gathered, input gradients all-reduced)</source>
        <translation>%1 (salidas de capa reunidas, gradientes de entrada con all-reduce)</translation>
    </message>
    <message>
        <source>moves takes at most one scenario file, got &apos;%1&apos; as well</source>
        <translation>moves admite como máximo un archivo de escenario, pero también se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>--algorithm: must be one of parameter-server, ring, tree, got &apos;%1&apos;</source>
        <translation>--algorithm: debe ser parameter-server, ring o tree; se recibió &apos;%1&apos;</translation>
    </message>
    <message>
        <source>What moves in one training step of model %1, same batch for every strategy (modelled clock, per worker means):

</source>
        <translation>Lo que se mueve en un paso de entrenamiento del modelo %1, con el mismo lote para cada estrategia (reloj modelado, medias por trabajador):

</translation>
    </message>
    <message>
        <source>moves %1: %2 bytes per step
</source>
        <translation>mueve %1: %2 bytes por paso
</translation>
    </message>
    <message>
        <source>step %1 s; per worker computing %2 s, waiting %3 s
</source>
        <translation>paso %1 s; por trabajador: cómputo %2 s, espera %3 s
</translation>
    </message>
    <message>
        <source>
bytes per step on each link (from-&gt;to):
</source>
        <translation>
bytes por paso en cada enlace (origen-&gt;destino):
</translation>
    </message>
    <message>
        <source>(nothing moves)</source>
        <translation>(no se mueve nada)</translation>
    </message>
    <message>
        <source>at most %1, mean %2 updates behind</source>
        <translation>como máximo %1, de media %2 actualizaciones de retraso</translation>
    </message>
    <message>
        <source>agreement</source>
        <translation>acuerdo</translation>
    </message>
    <message numerus="yes">
        <source>ssp: a worker runs at most %n clock(s) ahead of the slowest</source>
        <translation>
            <numerusform>ssp: un trabajador va como máximo %n ciclo por delante del más lento</numerusform>
            <numerusform>ssp: un trabajador va como máximo %n ciclos por delante del más lento</numerusform>
        </translation>
    </message>
    <message>
        <source>staleness</source>
        <translation>obsolescencia</translation>
    </message>
    <message>
        <source>async: every gradient applied as it arrives, at lr / staleness</source>
        <translation>async: cada gradiente se aplica en cuanto llega, con lr / obsolescencia</translation>
    </message>
    <message>
        <source>async: every gradient applied as it arrives</source>
        <translation>async: cada gradiente se aplica en cuanto llega</translation>
    </message>
    <message numerus="yes">
        <source>local SGD: %n step(s) on their own, then the replicas average their parameters</source>
        <translation>
            <numerusform>SGD local: %n paso por su cuenta y luego las réplicas promedian sus parámetros</numerusform>
            <numerusform>SGD local: %n pasos por su cuenta y luego las réplicas promedian sus parámetros</numerusform>
        </translation>
    </message>
    <message>
        <source>against bsp</source>
        <translation>frente a bsp</translation>
    </message>
    <message>
        <source>waiting %1 s instead of %2 s per worker; total time %3 s instead of %4 s</source>
        <translation>espera %1 s en lugar de %2 s por trabajador; tiempo total %3 s en lugar de %4 s</translation>
    </message>
    <message>
        <source>worker %1 crashed writing the checkpoint of step %2 (%3) at %4 s, declared dead %5 s later</source>
        <translation>el trabajador %1 se cayó al escribir el punto de control del paso %2 (%3) a los %4 s; se declaró caído %5 s después</translation>
    </message>
    <message>
        <source>worker %1 crashed in step %2 (%3) at %4 s, declared dead %5 s later</source>
        <translation>el trabajador %1 se cayó en el paso %2 (%3) a los %4 s; se declaró caído %5 s después</translation>
    </message>
    <message>
        <source>the others went on without its gradient (backup workers)</source>
        <translation>los demás siguieron sin su gradiente (trabajadores de reserva)</translation>
    </message>
    <message>
        <source>no complete checkpoint yet, so everyone started over from step 0</source>
        <translation>aún no había ningún punto de control completo, así que todos volvieron a empezar desde el paso 0</translation>
    </message>
    <message>
        <source>%1 from %2 (step %3)</source>
        <translation>%1 desde %2 (paso %3)</translation>
    </message>
    <message>
        <source>skipped %1 (%2: %3)</source>
        <translation>se omitió %1 (%2: %3)</translation>
    </message>
    <message>
        <source>removed %1 leftover temporary file</source>
        <translation>se borró %1 archivo temporal sobrante</translation>
    </message>
    <message>
        <source>removed %1 leftover temporary files</source>
        <translation>se borraron %1 archivos temporales sobrantes</translation>
    </message>
    <message>
        <source>%1 step to redo</source>
        <translation>%1 paso por rehacer</translation>
    </message>
    <message>
        <source>%1 steps to redo</source>
        <translation>%1 pasos por rehacer</translation>
    </message>
    <message>
        <source>%1 workers go on</source>
        <translation>siguen %1 trabajadores</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>fallo</translation>
    </message>
    <message>
        <source>%1 steps redone, %2 worker-seconds thrown away; detection %3 s, recovery %4 s</source>
        <translation>%1 pasos rehechos, %2 trabajador-segundos desperdiciados; detección %3 s, recuperación %4 s</translation>
    </message>
    <message>
        <source>%1 (late, left out by backup workers)</source>
        <translation>%1 (tarde, descartado por los trabajadores de reserva)</translation>
    </message>
    <message>
        <source>%1 useful samples/s of %2 processed/s</source>
        <translation>%1 muestras útiles/s de %2 procesadas/s</translation>
    </message>
    <message>
        <source>%1 J, %2 J per useful sample (power per state: assumed, see docs/SCENARIO.md)</source>
        <translation>%1 J, %2 J por muestra útil (potencia por estado: supuesta, ver docs/SCENARIO.md)</translation>
    </message>
    <message>
        <source>final training loss</source>
        <translation>pérdida de entrenamiento final</translation>
    </message>
    <message>
        <source>held-out loss</source>
        <translation>pérdida con datos nuevos</translation>
    </message>
    <message>
        <source>no fresh data</source>
        <translation>sin datos nuevos</translation>
    </message>
    <message>
        <source>%1 ± %2 (seeds: %3)</source>
        <translation>%1 ± %2 (semillas: %3)</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>exactitud con datos nuevos</translation>
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
        <translation>uso: lockstep-cli compare A.json B.json [--target-loss X] [--seeds N] [--json]
     lockstep-cli compare [SCENARIO.json] --sync bsp,ssp,async,local
                          [--staleness S] [--local-steps H] [--target-loss X] [--json]

Ejecuta dos escenarios y los pone lado a lado: tiempo y energía hasta la misma pérdida
objetivo (por defecto: la mayor pérdida final), muestras útiles por segundo,
sincronización, espera y trabajo perdido, y la pérdida y la exactitud con ejemplos nuevos
como media ± desviación típica sobre N semillas (3 por defecto). Con --sync, un escenario con cada forma de
ponerse de acuerdo (ssp con obsolescencia 2 y SGD local cada 4 pasos, salvo que se indique).
</translation>
    </message>
    <message>
        <source>model          parameters  train_loss  accuracy  compute_s  energy_kJ  held_out_loss (mean ± sd)
</source>
        <translation>modelo         parámetros  pérd_entr   exactitud cálculo_s  energía_kJ pérd_nuevos (media ± dt)
</translation>
    </message>
    <message>
        <source>energy modelled per worker: computing %1 W, communicating %2 W, waiting %3 W, writing checkpoints %4 W, idle %5 W
</source>
        <translation>energía modelada por trabajador: calculando %1 W, comunicando %2 W, esperando %3 W, escribiendo puntos de control %4 W, inactivo %5 W
</translation>
    </message>
    <message>
        <source>train_loss and accuracy: the last step&apos;s batch, first seed; held_out_loss: fresh examples, mean ± sd over the seeds (%1)
</source>
        <translation>pérd_entr y exactitud: el lote del último paso, primera semilla; pérd_nuevos: ejemplos nuevos, media ± dt sobre las semillas (%1)
</translation>
    </message>
    <message>
        <source>accumulation</source>
        <translation>acumulación</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es) added up before each reduction</source>
        <translation>
            <numerusform>%n microlote sumado antes de cada reducción</numerusform>
            <numerusform>%n microlotes sumados antes de cada reducción</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n bucket(s) of at most %1 bytes each, reduced in turn</source>
        <translation>
            <numerusform>%n cubo de como mucho %1 bytes, reducido por turnos</numerusform>
            <numerusform>%n cubos de como mucho %1 bytes cada uno, reducidos por turnos</numerusform>
        </translation>
    </message>
    <message>
        <source>one bucket: the whole gradient, once backward is over</source>
        <translation>un cubo: todo el gradiente, al terminar la pasada hacia atrás</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>cubos</translation>
    </message>
    <message>
        <source>%1 s of %2 s per worker hidden behind backward (%3 %); %4 s exposed</source>
        <translation>%1 s de %2 s por trabajador ocultos tras la pasada hacia atrás (%3 %); %4 s expuestos</translation>
    </message>
    <message>
        <source>%1 s of %2 s per worker hidden (%3 %): without overlap every bucket waits for backward; %4 s exposed</source>
        <translation>%1 s de %2 s por trabajador ocultos (%3 %): sin solapamiento cada cubo espera a la pasada hacia atrás; %4 s expuestos</translation>
    </message>
    <message>
        <source>bucket order</source>
        <translation>orden de los cubos</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) stopped: a worker reduced its buckets in another order, so a message named the wrong bucket; nothing was added or applied in those steps</source>
        <translation>
            <numerusform>%n paso detenido: un trabajador redujo sus cubos en otro orden, así que un mensaje nombraba el cubo equivocado; en ese paso no se sumó ni se aplicó nada</numerusform>
            <numerusform>%n pasos detenidos: un trabajador redujo sus cubos en otro orden, así que un mensaje nombraba el cubo equivocado; en esos pasos no se sumó ni se aplicó nada</numerusform>
        </translation>
    </message>
    <message>
        <source>precision</source>
        <translation>precisión</translation>
    </message>
    <message>
        <source>%1: every pass and update on floats, 4 bytes a value</source>
        <translation>%1: cada pasada y cada actualización en floats, 4 bytes por valor</translation>
    </message>
    <message>
        <source>loss scale</source>
        <translation>escala de la pérdida</translation>
    </message>
    <message>
        <source>started at %1, ended at %2: halved at each overflow, doubled after %3 steps without one</source>
        <translation>empezó en %1, terminó en %2: a la mitad en cada desbordamiento, el doble tras %3 pasos sin ninguno</translation>
    </message>
    <message>
        <source>against float64</source>
        <translation>frente a float64</translation>
    </message>
    <message>
        <source>the summed gradient was at most %1 from the float64 reference, at step %2 (per step: run --json, precision_gap)</source>
        <translation>el gradiente sumado quedó como mucho a %1 de la referencia en float64, en el paso %2 (por paso: run --json, precision_gap)</translation>
    </message>
    <message>
        <source>on the wire</source>
        <translation>en la red</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 bytes a value; %n step(s) skipped because the summed gradient overflowed</source>
        <translation>
            <numerusform>%1, %2 bytes por valor; %n paso omitido porque el gradiente sumado se desbordó</numerusform>
            <numerusform>%1, %2 bytes por valor; %n pasos omitidos porque el gradiente sumado se desbordó</numerusform>
        </translation>
    </message>
    <message>
        <source>communication</source>
        <translation>comunicación</translation>
    </message>
    <message>
        <source>bucket KB</source>
        <translation>cubo KB</translation>
    </message>
    <message>
        <source>step (s)</source>
        <translation>paso (s)</translation>
    </message>
    <message>
        <source>exposed/step</source>
        <translation>expuesto/paso</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>oculto</translation>
    </message>
    <message>
        <source>fastest step: buckets of %1 KB
</source>
        <translation>paso más rápido: cubos de %1 KB
</translation>
    </message>
    <message>
        <source>--no-overlap: goes with --bucket-kb (the bucket sweep)</source>
        <translation>--no-overlap: va con --bucket-kb (el barrido de tamaños de cubo)</translation>
    </message>
    <message>
        <source>sharding</source>
        <translation>fragmentación</translation>
    </message>
    <message>
        <source>ZeRO stage 1: the gradients are reduce-scattered, each worker keeps and updates the optimizer state of its 1/%1 of the parameters only, then the parameters are all-gathered</source>
        <translation>ZeRO etapa 1: los gradientes se reparten con reduce-scatter, cada worker guarda y actualiza el estado del optimizador solo de su 1/%1 de los parámetros, y luego los parámetros se reúnen con all-gather</translation>
    </message>
    <message>
        <source>Bytes held by the worker that holds the most, after one step of &quot;%1&quot; (%2 workers, %3 parameters); in brackets, against the first column
</source>
        <translation>Bytes del worker que más guarda, tras un paso de «%1» (%2 workers, %3 parámetros); entre paréntesis, frente a la primera columna
</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>parámetros</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradientes</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>optimizador</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>activaciones</translation>
    </message>
    <message>
        <source>workspace</source>
        <translation>trabajo</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>pico</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>memoria</translation>
    </message>
    <message>
        <source>worker %1 holds the most, %2 bytes: parameters %3, gradients %4, optimizer %5, activations %6, workspace %7</source>
        <translation>el worker %1 guarda más, %2 bytes: parámetros %3, gradientes %4, optimizador %5, activaciones %6, memoria de trabajo %7</translation>
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
opciones de gradientes (paralelismo de datos síncrono; el bloque &quot;gradients&quot; del escenario):
  --bucket-kb B  los gradientes salen en cubos de como mucho B KB, las últimas capas primero,
         y la colectiva de cada cubo empieza mientras sigue la pasada hacia atrás (0: un cubo,
         después de la pasada hacia atrás)
  --no-overlap  los cubos esperan a que termine la pasada hacia atrás
  --paced-links  en el reloj medido, cada ronda de la colectiva dura además de verdad lo que
         le pone el modelo de costes (la velocidad de sus enlaces), para que el solapamiento
         oculte tiempo real
  --accumulate K  K microlotes de --batch ejemplos sumados antes de una reducción
  --fail bucket-order:worker=2,step=5  ese trabajador reduce sus cubos en otro orden en ese
         paso: la ejecución lo ve en los mensajes y detiene el paso
  sweep --bucket-kb 0,8,32,128  la misma ejecución para cada tamaño de cubo: tiempo de paso,
         la comunicación que queda expuesta y el tamaño más rápido
  --shard optimizer|gradients|parameters  paralelismo de datos fragmentado, ZeRO etapa 1,
         2 o 3 (&quot;sharding&quot; del escenario): los gradientes se reparten con reduce-scatter,
         cada worker guarda y actualiza el estado del optimizador solo de su 1/N de los
         parámetros, y luego los parámetros se reúnen con all-gather; la etapa 2 guarda
         también solo su 1/N del gradiente; la etapa 3 (FSDP) guarda 1/N de cada capa y
         reúne una capa cuando una pasada la necesita
  --comm-precision float32|float16|bfloat16  los gradientes viajan y se suman en ese
         formato (&quot;comm_precision&quot; del escenario): menos bytes en cada enlace, cada
         suma redondeada a él; un paso cuyo gradiente sumado se desbordó se omite
  --precision float64|float32  los números con los que entrena el modelo (&quot;precision&quot; del
         escenario): con float32 cada pasada y cada actualización van en floats, la mitad
         de bytes que float64, y los gradientes viajan como float32 salvo que
         --comm-precision los estreche más
  --loss-scale S  con un --comm-precision más estrecho, cada gradiente se multiplica por S
         (una potencia de dos) antes de redondearlo y se vuelve a dividir tras la suma, para que
         los valores pequeños conserven sus bits; un paso que se desborda se omite y S se reduce
         a la mitad, y tras --loss-scale-growth K pasos (2000 por defecto) sin desbordamiento S
         se duplica
  --compare-precision  cada paso calcula además el gradiente de cada worker en float64 e
         informa de lo lejos que quedó de él el gradiente sumado que usó el paso (solo con hilos)
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
        <translation>uso: lockstep-cli memory [SCENARIO.json] [--shard none,optimizer,...] [--workers N]
                           [--layers L] [--optimizer sgd|adam] [--batch N] [--json]

Ejecuta un paso del escenario para cada forma de fragmentar e imprime, tipo por tipo,
los bytes que guarda el worker que más guarda: parámetros, gradientes, estado del
optimizador, activaciones y la memoria de trabajo de los kernels, leídos de sus búferes,
y los parámetros que más llegó a tener a la vez. --shard toma una lista de none,
optimizer, gradients y parameters (etapas ZeRO 0 a 3); sin ella, las cuatro.
</translation>
    </message>
    <message>
        <source>params peak</source>
        <translation>pico parám.</translation>
    </message>
    <message>
        <source>ZeRO stage 2: as stage 1, and between steps each worker keeps only its 1/%1 of the summed gradient</source>
        <translation>ZeRO etapa 2: como la etapa 1, y entre pasos cada worker guarda solo su 1/%1 del gradiente sumado</translation>
    </message>
    <message>
        <source>ZeRO stage 3 (FSDP): each worker keeps 1/%1 of every layer; a layer is all-gathered before forward and again before backward, freed after use, and its gradient reduce-scattered</source>
        <translation>ZeRO etapa 3 (FSDP): cada worker guarda 1/%1 de cada capa; una capa se reúne con all-gather antes de la pasada hacia delante y otra vez antes de la pasada hacia atrás, se libera tras usarla, y su gradiente se reparte con reduce-scatter</translation>
    </message>
    <message>
        <source>%1 (reduce-scatter %2, all-gather %3)</source>
        <translation>%1 (reduce-scatter %2, all-gather %3)</translation>
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
        <translation>uso: lockstep-cli resume DIR [--json] [--params-out FILE] [--trace FILE]
                         [--trace-detail rounds|phases] [--metrics-csv FILE]
                         [--from-scratch] [--transport mpi [--rank-timeout S]]

Continúa la ejecución cuyos puntos de control están en DIR desde su punto de control
completo más reciente, saltándose los parciales, los corruptos y los que no encajan con
la ejecución, e informa de la ejecución igual que run. Mientras entrena, DIR es suyo: se
rechaza una segunda ejecución o un segundo resume sobre él. Si DIR tiene puntos de
control pero ninguno sirve, resume no vuelve a empezar encima de ellos; --from-scratch
los aparta antes en DIR/set-aside-N.
</translation>
    </message>
    <message>
        <source>%1: cannot create a scratch directory for the checkpoints</source>
        <translation>%1: no se puede crear una carpeta temporal para los puntos de control</translation>
    </message>
    <message>
        <source>--rank-timeout: bounds a wait between processes, so it needs --transport mpi</source>
        <translation>--rank-timeout: limita la espera entre procesos, así que necesita --transport mpi</translation>
    </message>
    <message>
        <source>note: set the checkpoints this run cannot use aside in %1</source>
        <translation>nota: los puntos de control que esta ejecución no puede usar se han apartado en %1</translation>
    </message>
    <message>
        <source>bench needs a kind: allreduce, link or train</source>
        <translation>bench necesita un tipo: allreduce, link o train</translation>
    </message>
    <message>
        <source>--algorithm: hierarchical needs machines, which bench allreduce has none of; compare it in a run with --nodes M</source>
        <translation>--algorithm: hierarchical necesita máquinas, y bench allreduce no tiene ninguna; compáralo en una ejecución con --nodes M</translation>
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
        <translation>uso: lockstep-cli COMMAND [ARGS]
     lockstep-cli --version | --help | COMMAND --help

comandos:
  run [SCENARIO.json] [opciones]  entrena con N trabajadores e informa del tiempo, la aceleración
                                  y la pérdida
  mpirun -np N lockstep-cli run [SCENARIO.json] --transport mpi [opciones]
                                  la misma ejecución con un proceso por trabajador, con Open MPI
  sweep [SCENARIO.json] --workers 1,2,4,8 [--json]
                                  el mismo escenario con varios números de trabajadores
  reduce --rule sum|mean|weighted-mean --values 2,4 [--weights 30,10]
                                  combina valores como el motor combina los gradientes
  resume DIR [--json] [--params-out FILE] [--trace FILE] [--trace-detail D] [--metrics-csv FILE]
         [--from-scratch] [--transport mpi [--rank-timeout S]]
                                  continúa una ejecución desde su punto de control completo más
                                  reciente
  checkpoints DIR [--json]        cada punto de control: completo, parcial o corrupto, y por qué
  compare A.json B.json [--target-loss X] [--seeds N] [--json]
                                  dos escenarios lado a lado: tiempo y energía hasta la misma
                                  pérdida, trabajo útil, sincronización, espera, trabajo perdido
  compare [SCENARIO.json] --sync bsp,ssp,async,local [--staleness S] [--local-steps H]
                                  un escenario con cada forma de ponerse de acuerdo, lado a lado
  moves [SCENARIO.json] [--stages P ...] [--json]
                                  bytes que mueve cada paralelismo por paso y por enlace, y esperas
  validate FILE                   comprueba un archivo de escenario; sale con 0 o dice qué falla
  memory [SCENARIO.json] [--shard none,optimizer,gradients,parameters] [--json]
                                  lo que guarda un worker de datos en paralelo, por tipo y etapa
  bench allreduce --algorithm ring --workers 4 --bytes N [--json]
  mpirun -np N lockstep-cli bench allreduce --transport mpi --algorithm ring --bytes N [--json]
  mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]
                                  latencia y ancho de banda entre dos procesos (ping-pong)
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
opciones de run (sustituyen a las del escenario):
  --workers N  --steps N  --seed N  --batch N (por trabajador)
  --clock modelled|measured  --rule sum|mean|weighted-mean
  --algorithm parameter-server|ring|tree|hierarchical|none (mpi-allreduce: el de Open MPI, con
         --transport mpi; hierarchical: primero dentro de cada máquina, luego entre ellas, con --nodes)
  --nodes M  los trabajadores en M máquinas (trabajadores / M cada una): enlaces rápidos dentro
         de una máquina, una red de 100 Mbit/s entre máquinas (la &quot;topology&quot; de un escenario pone otros)
  --transport threads|mpi  threads (por defecto): cada trabajador es un hilo de este proceso; mpi:
         cada proceso que inicia mpirun es un trabajador, con el reloj medido (ver docs/MPI.md)
  --rank-timeout S  con --transport mpi: un rango que espera S segundos (30 por defecto) a otro
         pregunta qué rangos siguen vivos, y el trabajo termina nombrando a los que no responden
  --layers 2,8,2  --activation tanh|relu|sigmoid|linear
  --optimizer sgd|adam  --lr X  --momentum X
  --dataset spiral|circles|xor|clusters|regression|FILE.csv  --shuffle on|off
  --init-params FILE.json  --params-out FILE.json
  --trace FILE.json (traza de Chrome, escrita durante la ejecución)  --metrics-csv FILE  --json
  --trace-detail rounds|phases  rounds (por defecto): cada evento, un tramo por ronda colectiva
         y trabajador; phases: las rondas seguidas de un trabajador y las esperas entre ellas en
         un solo tramo &quot;collective&quot;, para muchos trabajadores (un anillo de 256 trabajadores:
         256 tramos por paso, no 130 000)
  --checkpoint-dir DIR  --checkpoint-every K  --keep M  --restore full|weights-only
  --fail SPEC (repetible): crash:worker=2,step=30,phase=compute|communicate|update|
         before-fsync|after-fsync|after-rename   pause:worker=1,step=10,seconds=5
         slow-link:worker=3,step=0,factor=4      corrupt:worker=0,step=20[,how=truncate]
  --policy restart|elastic|backup  --backup-workers B  --heartbeat SECONDS
  --parallelism data|pipeline|tensor|hybrid  --stages P  --microbatches M
  --schedule fill-drain|1f1b  --replicas D (hybrid)
  --sync bsp|ssp|async|local  cada cuánto se ponen de acuerdo los trabajadores: en cada paso
         (bsp, por defecto), cuando el más lento va más de --staleness S ciclos por detrás (ssp),
         nunca: cada gradiente se aplica en cuanto llega (async, --staleness-aware-lr), o
         promediando las réplicas cada --local-steps H pasos (local). ssp y async pasan por un
         servidor de parámetros.
</translation>
    </message>
    <message>
        <source>usage: lockstep-cli bench allreduce|link|train [flags]

Measures this machine. See lockstep-cli bench allreduce --help,
lockstep-cli bench link --help and lockstep-cli bench train --help.
</source>
        <translation>uso: lockstep-cli bench allreduce|link|train [opciones]

Mide este equipo. Consulta lockstep-cli bench allreduce --help,
lockstep-cli bench link --help y lockstep-cli bench train --help.
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
        <translation>uso: mpirun -np 2 lockstep-cli bench link [--bytes N] [--iterations N] [--json]

Mide el enlace entre el rango 0 y el último rango con ping-pong: 8 bytes y N bytes
(por defecto 1048576) de ida y vuelta, 20 veces cada uno. La latencia es la mitad
del viaje de ida y vuelta del mensaje pequeño; el ancho de banda, los bytes de más
del grande entre su tiempo de más: los dos números que toma topology.inter de un
escenario. Arranca los rangos en dos máquinas (un archivo de hosts o
scripts/two-hosts.sh) para medir la red.
</translation>
    </message>
    <message>
        <source>link from rank 0 (%1) to rank %2 (%3), ping-pong of 8 and %4 bytes, %5 times each:
</source>
        <translation>enlace del rango 0 (%1) al rango %2 (%3), ping-pong de 8 y %4 bytes, %5 veces cada uno:
</translation>
    </message>
    <message>
        <source>  latency %1 µs (half the round trip of 8 bytes), bandwidth %2 Mbit/s
</source>
        <translation>  latencia %1 µs (la mitad del viaje de ida y vuelta de 8 bytes), ancho de banda %2 Mbit/s
</translation>
    </message>
    <message>
        <source>  for a scenario: &quot;topology&quot;: {..., &quot;inter&quot;: %1}
</source>
        <translation>  para un escenario: &quot;topology&quot;: {..., &quot;inter&quot;: %1}
</translation>
    </message>
    <message>
        <source>between machines</source>
        <translation>entre máquinas</translation>
    </message>
    <message>
        <source>%1 bytes crossed the network (%2 machines of %3 workers, %4 Mbit/s)</source>
        <translation>%1 bytes cruzaron la red (%2 máquinas de %3 trabajadores, %4 Mbit/s)</translation>
    </message>
    <message>
        <source>--nodes: %1 workers cannot be shared evenly among %2 machines; give a number of machines that divides the workers</source>
        <translation>--nodes: %1 trabajadores no se pueden repartir por igual entre %2 máquinas; indica un número de máquinas que divida a los trabajadores</translation>
    </message>
    <message>
        <source>teacher&apos;s link used; the next one: %1
</source>
        <translation>enlace de docente usado; el siguiente: %1
</translation>
    </message>
    <message>
        <source>--resume goes on with the journal&apos;s quiz: it takes no --journal or --questions</source>
        <translation>--resume continúa el cuestionario del diario: no admite --journal ni --questions</translation>
    </message>
    <message>
        <source>--journal: cannot write %1: %2</source>
        <translation>--journal: no se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>journal: %1
</source>
        <translation>diario: %1
</translation>
    </message>
    <message>
        <source>resumed: %1 students, question %2 of %3, %4%5
</source>
        <translation>continuado: %1 estudiantes, pregunta %2 de %3, %4%5
</translation>
    </message>
    <message>
        <source> (a last line cut off was dropped)</source>
        <translation> (se descartó una última línea cortada)</translation>
    </message>
    <message>
        <source>cannot write to the journal %1: %2; changes are refused from now on</source>
        <translation>no se puede escribir en el diario %1: %2; desde ahora se rechazan los cambios</translation>
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
cuestionario de clase en directo, que los estudiantes responden en su navegador (docs/CLASS.md):
  class serve BANK [--questions id,id] [--port N] [--bind ADDRESS] [--max-students N]
                   [--results FILE.csv] [--journal FILE | --resume FILE]
                   [--blocked-words FILE] [--root DIR]
                                  sirve el cuestionario en las direcciones de aula (privadas) de
                                  este equipo, en el puerto 8080 por defecto; muestra la dirección
                                  para los estudiantes, el código para unirse y el enlace de un
                                  solo uso del docente. Cada cambio queda en el diario en disco
                                  antes de confirmarse (--journal, o un archivo nuevo en la
                                  carpeta de datos); --resume ARCHIVO continúa un cuestionario
                                  desde su diario, con el mismo código y los mismos tokens.
                                  --blocked-words ARCHIVO: palabras (una por línea) que ningún
                                  nombre puede contener.
                                  Ctrl+C o SIGTERM lo terminan después de escribir los resultados.
</translation>
    </message>
    <message>
        <source>--blocked-words: cannot read %1: %2</source>
        <translation>--blocked-words: no se puede leer %1: %2</translation>
    </message>
    <message>
        <source>--blocked-words: %1 is over 1 MiB; it should be a list of words</source>
        <translation>--blocked-words: %1 ocupa más de 1 MiB; debería ser una lista de palabras</translation>
    </message>
    <message>
        <source>--blocked-words: %1 is not UTF-8 text</source>
        <translation>--blocked-words: %1 no es texto UTF-8</translation>
    </message>
</context>
<context>
    <name>LockstepMain</name>
    <message>
        <source>Lockstep: a lab for distributed training</source>
        <translation>Lockstep: un laboratorio de entrenamiento distribuido</translation>
    </message>
    <message>
        <source>Print the version, and where the lessons, scenarios and quiz banks are read from.</source>
        <translation>Muestra la versión y de dónde se leen las lecciones, los escenarios y los bancos de preguntas.</translation>
    </message>
    <message>
        <source>Scenario file to open.</source>
        <translation>Archivo de escenario que se abre.</translation>
    </message>
    <message>
        <source>With --screenshot: one view (%1).</source>
        <translation>Con --screenshot: una vista (%1).</translation>
    </message>
    <message>
        <source>With --screenshot: place the playhead here (seconds on the run&apos;s clock; default: the end).</source>
        <translation>Con --screenshot: coloca aquí el cabezal de reproducción (segundos en el reloj de la ejecución; por defecto: el final).</translation>
    </message>
    <message>
        <source>Render offscreen to this PNG (or .svg) and exit.</source>
        <translation>Renderiza sin pantalla en este PNG (o .svg) y sale.</translation>
    </message>
    <message>
        <source>With --screenshot: window size, WxH (default 1600x1000).</source>
        <translation>Con --screenshot: tamaño de la ventana, WxH (por defecto 1600x1000).</translation>
    </message>
    <message>
        <source>Open a lesson (its page, scenario and views), e.g. speedup.</source>
        <translation>Abre una lección (su página, su escenario y sus vistas), p. ej. speedup.</translation>
    </message>
    <message>
        <source>Headless: write the trace as the lab then holds it (Chrome Trace Event JSON, like lockstep-cli run --trace) and exit.</source>
        <translation>Sin ventana: escribe la traza tal como la tiene el laboratorio (Chrome Trace Event JSON, como lockstep-cli run --trace) y sale.</translation>
    </message>
    <message>
        <source>Play back a recorded run: the trace of a run over processes (lockstep-cli run --transport mpi --trace FILE).</source>
        <translation>Reproduce una ejecución grabada: la traza de una ejecución en varios procesos (lockstep-cli run --transport mpi --trace FILE).</translation>
    </message>
    <message>
        <source>Start a class quiz on the bank BANK (e.g. reductions): the projector&apos;s window, served on port 8080 of this computer&apos;s classroom addresses.</source>
        <translation>Inicia un cuestionario de clase con el banco BANK (p. ej. reductions): la ventana del proyector, servida en el puerto 8080 de las direcciones de aula de este ordenador.</translation>
    </message>
    <message>
        <source>The language of the window, the lessons and the quizzes: %1 (default: the one chosen under View → Language, else the system&apos;s).</source>
        <translation>El idioma de la ventana, las lecciones y los cuestionarios: %1 (por defecto: el elegido en Ver → Idioma; si no, el del sistema).</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos; (scenarios are opened with --scenario FILE)</source>
        <translation>argumento inesperado «%1» (los escenarios se abren con --scenario FILE)</translation>
    </message>
    <message>
        <source>--replay brings its own scenario; leave out --scenario and --lesson</source>
        <translation>--replay trae su propio escenario; quita --scenario y --lesson</translation>
    </message>
    <message>
        <source>--replay: </source>
        <translation>--replay: </translation>
    </message>
    <message>
        <source>--lesson brings its own scenario; leave out --scenario</source>
        <translation>--lesson trae su propio escenario; quita --scenario</translation>
    </message>
    <message>
        <source>--lesson: </source>
        <translation>--lesson: </translation>
    </message>
    <message>
        <source>--action &apos;%1&apos;: %2</source>
        <translation>--action «%1»: %2</translation>
    </message>
    <message>
        <source>--action goes with --screenshot or --trace-out</source>
        <translation>--action va con --screenshot o --trace-out</translation>
    </message>
    <message>
        <source>--class-quiz opens a window: it does not go with --screenshot or --trace-out</source>
        <translation>--class-quiz abre una ventana: no va con --screenshot ni con --trace-out</translation>
    </message>
    <message>
        <source>--view and --play-to go with --screenshot</source>
        <translation>--view y --play-to van con --screenshot</translation>
    </message>
    <message>
        <source>--class-quiz %1: the quiz could not start</source>
        <translation>--class-quiz %1: no se pudo iniciar el cuestionario</translation>
    </message>
    <message>
        <source>--size: expected WxH between 200x150 and 8000x8000, got &apos;%1&apos;</source>
        <translation>--size: se esperaba WxH entre 200x150 y 8000x8000, y se recibió «%1»</translation>
    </message>
    <message>
        <source>--view: must be one of %1, got &apos;%2&apos;</source>
        <translation>--view: debe ser uno de %1, y se recibió «%2»</translation>
    </message>
    <message>
        <source>--trace-out: %1</source>
        <translation>--trace-out: %1</translation>
    </message>
    <message>
        <source>--play-to: expected seconds (a number &gt;= 0), got &apos;%1&apos;</source>
        <translation>--play-to: se esperaban segundos (un número &gt;= 0), y se recibió «%1»</translation>
    </message>
    <message>
        <source>cannot write the screenshot</source>
        <translation>no se puede guardar la captura de pantalla</translation>
    </message>
    <message>
        <source>Start in the high-contrast theme for projectors (View → High Contrast).</source>
        <translation>Empezar con el tema de alto contraste para proyectores (Ver → Alto contraste).</translation>
    </message>
    <message>
        <source>Headless: when the playhead reaches T seconds on the run&apos;s clock, apply the lesson link LINK as a click would (e.g. 0.1:lockstep:crash?worker=2); T &apos;end&apos; applies it after the run has finished, as a click at its end would (the run plays again from step 0 with it). Repeatable; applied in time order.</source>
        <translation>Sin ventana: cuando el cabezal llega a T segundos en el reloj de la ejecución, aplica el enlace de lección LINK como lo haría un clic (p. ej. 0.1:lockstep:crash?worker=2); T &apos;end&apos; lo aplica cuando la ejecución ha terminado, como un clic en su final (la ejecución se repite entonces con él desde el paso 0). Repetible; se aplican en orden de tiempo.</translation>
    </message>
    <message>
        <source>--action: expected T:LINK with T in seconds (a number &gt;= 0) or &apos;end&apos;, e.g. 0.1:lockstep:crash?worker=2 or end:lockstep:set?rule=sum, got &apos;%1&apos;</source>
        <translation>--action: se esperaba T:LINK con T en segundos (un número &gt;= 0) o &apos;end&apos;, p. ej. 0.1:lockstep:crash?worker=2 o end:lockstep:set?rule=sum, se recibió &apos;%1&apos;</translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>parameter server</source>
        <translation>servidor de parámetros</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>anillo</translation>
    </message>
    <message>
        <source>tree</source>
        <translation>árbol</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>sum</source>
        <translation>suma</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>media</translation>
    </message>
    <message>
        <source>weighted mean</source>
        <translation>media ponderada</translation>
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
        <translation>SGD local</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>medido</translation>
    </message>
    <message>
        <source>modelled</source>
        <translation>modelado</translation>
    </message>
    <message>
        <source>data</source>
        <translation>datos</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>pipeline</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>tensor</translation>
    </message>
    <message>
        <source>hybrid</source>
        <translation>híbrido</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>fill-drain</source>
        <translation>llenado-vaciado</translation>
    </message>
    <message>
        <source>weights only</source>
        <translation>solo los pesos</translation>
    </message>
    <message>
        <source>full</source>
        <translation>completa</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>cálculo</translation>
    </message>
    <message>
        <source>send</source>
        <translation>envío</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>recepción</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>reducción</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>espera</translation>
    </message>
    <message>
        <source>update</source>
        <translation>actualización</translation>
    </message>
    <message>
        <source>communicate</source>
        <translation>comunicación</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>pausa</translation>
    </message>
    <message>
        <source>checkpoint write</source>
        <translation>escritura del punto de control</translation>
    </message>
    <message>
        <source>checkpoint sync</source>
        <translation>sincronización del punto de control</translation>
    </message>
    <message>
        <source>checkpoint commit</source>
        <translation>confirmación del punto de control</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallo</translation>
    </message>
    <message>
        <source>detect</source>
        <translation>detección</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>restauración</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>verificación</translation>
    </message>
    <message>
        <source>damage</source>
        <translation>daño</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>hacia delante</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>hacia atrás</translation>
    </message>
    <message>
        <source>bubble</source>
        <translation>burbuja</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>completo</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>parcial</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>dañado</translation>
    </message>
    <message>
        <source>no manifest</source>
        <translation>sin manifiesto</translation>
    </message>
    <message>
        <source>missing file</source>
        <translation>falta un archivo</translation>
    </message>
    <message>
        <source>size mismatch</source>
        <translation>tamaño incorrecto</translation>
    </message>
    <message>
        <source>checksum mismatch</source>
        <translation>suma de verificación incorrecta</translation>
    </message>
    <message>
        <source>bad version</source>
        <translation>versión incorrecta</translation>
    </message>
    <message>
        <source>bad name in manifest</source>
        <translation>nombre incorrecto en el manifiesto</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>ilegible</translation>
    </message>
    <message>
        <source>wrong scenario</source>
        <translation>escenario equivocado</translation>
    </message>
    <message>
        <source>wrong worker count</source>
        <translation>número de trabajadores incorrecto</translation>
    </message>
    <message>
        <source>does not fit this run</source>
        <translation>no encaja con esta ejecución</translation>
    </message>
    <message>
        <source>bucket mismatch</source>
        <translation>cubo equivocado</translation>
    </message>
    <message>
        <source>ZeRO 1: optimizer state sharded</source>
        <translation>ZeRO 1: estado del optimizador fragmentado</translation>
    </message>
    <message>
        <source>ZeRO 2: gradients and optimizer state sharded</source>
        <translation>ZeRO 2: gradientes y estado del optimizador fragmentados</translation>
    </message>
    <message>
        <source>ZeRO 3 (FSDP): parameters, gradients and optimizer state sharded</source>
        <translation>ZeRO 3 (FSDP): parámetros, gradientes y estado del optimizador fragmentados</translation>
    </message>
    <message>
        <source>no sharding</source>
        <translation>sin fragmentar</translation>
    </message>
    <message>
        <source>all-gather of layer %1</source>
        <translation>all-gather de la capa %1</translation>
    </message>
    <message>
        <source>all-gather of the parameters</source>
        <translation>all-gather de los parámetros</translation>
    </message>
    <message>
        <source>reduce-scatter of layer %1&apos;s gradient</source>
        <translation>reduce-scatter del gradiente de la capa %1</translation>
    </message>
    <message>
        <source>reduce-scatter of the gradient</source>
        <translation>reduce-scatter del gradiente</translation>
    </message>
    <message>
        <source>hierarchical</source>
        <translation>jerárquico</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>computing</source>
        <translation>calculando</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>enviando</translation>
    </message>
    <message>
        <source>receiving</source>
        <translation>recibiendo</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>esperando</translation>
    </message>
    <message>
        <source>updating</source>
        <translation>actualizando</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>en pausa</translation>
    </message>
    <message>
        <source>checkpointing</source>
        <translation>guardando punto de control</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallido</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactivo</translation>
    </message>
    <message>
        <source>checkpoint: writing</source>
        <translation>punto de control: escribiendo</translation>
    </message>
    <message>
        <source>checkpoint: renaming</source>
        <translation>punto de control: renombrando</translation>
    </message>
    <message>
        <source>checkpoint: syncing</source>
        <translation>punto de control: sincronizando</translation>
    </message>
    <message>
        <source>checkpoint: committing</source>
        <translation>punto de control: confirmando</translation>
    </message>
    <message>
        <source>checkpoint: verifying</source>
        <translation>punto de control: verificando</translation>
    </message>
    <message>
        <source>checkpoint: restoring</source>
        <translation>punto de control: restaurando</translation>
    </message>
</context>
<context>
    <name>QrCode</name>
    <message>
        <source>QR code of the students&apos; address</source>
        <translation>Código QR de la dirección para los estudiantes</translation>
    </message>
</context>
<context>
    <name>RecoveryCaption</name>
    <message>
        <source>Worker %1 stopped in step %2. The others cannot tell yet: they wait for its heartbeat, which times out at t = %3 s.</source>
        <translation>El trabajador %1 se detuvo en el paso %2. Los demás aún no pueden saberlo: esperan su latido, que deja de llegar en t = %3 s.</translation>
    </message>
    <message>
        <source>Worker %1 stopped in step %2. The others cannot tell yet: they wait for its heartbeat.</source>
        <translation>El trabajador %1 se detuvo en el paso %2. Los demás aún no pueden saberlo: esperan su latido.</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead, and the others go on without it.</source>
        <translation>El latido del trabajador %1 dejó de llegar en t = %2 s: se le da por caído, y los demás siguen sin él.</translation>
    </message>
    <message>
        <source>1 step of work is done again</source>
        <translation>se repite 1 paso de trabajo</translation>
    </message>
    <message>
        <source>%1 steps of work are done again</source>
        <translation>se repiten %1 pasos de trabajo</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead. There is no checkpoint to load, so the run starts over from step 0: %3.</source>
        <translation>El latido del trabajador %1 dejó de llegar en t = %2 s: se le da por caído. No hay punto de control que cargar, así que la ejecución vuelve a empezar en el paso 0: %3.</translation>
    </message>
    <message>
        <source>Worker %1&apos;s heartbeat timed out at t = %2 s: it is declared dead. One scan of the checkpoint folder finds the newest complete checkpoint (every file and its manifest written), the checkpoint of step %3; every worker loads that same one and they do steps %3 to %4 again: %5.</source>
        <translation>El latido del trabajador %1 dejó de llegar en t = %2 s: se le da por caído. Una sola lectura de la carpeta de puntos de control encuentra el punto de control completo más reciente (cada archivo y su manifiesto escritos), el del paso %3; todos los trabajadores cargan ese mismo y rehacen los pasos %3 a %4: %5.</translation>
    </message>
</context>
<context>
    <name>StepStory</name>
    <message>
        <source>%1 seconds</source>
        <translation>%1 segundos</translation>
    </message>
    <message>
        <source>%1 milliseconds</source>
        <translation>%1 milisegundos</translation>
    </message>
    <message>
        <source>%1 microseconds</source>
        <translation>%1 microsegundos</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 y %2</translation>
    </message>
    <message>
        <source>Step %1.</source>
        <translation>Paso %1.</translation>
    </message>
    <message>
        <source>Worker %1 is down.</source>
        <translation>El trabajador %1 ha caído.</translation>
    </message>
    <message>
        <source>Workers %1 are down.</source>
        <translation>Los trabajadores %1 han caído.</translation>
    </message>
    <message>
        <source>worker %1 waits %2</source>
        <translation>el trabajador %1 espera %2</translation>
    </message>
    <message>
        <source>workers %1 wait up to %2</source>
        <translation>los trabajadores %1 esperan hasta %2</translation>
    </message>
    <message>
        <source>Worker %1 is %2 times slower</source>
        <translation>El trabajador %1 es %2 veces más lento</translation>
    </message>
    <message>
        <source>%1; %2.</source>
        <translation>%1; %2.</translation>
    </message>
    <message>
        <source>All %1 workers compute and agree without waiting.</source>
        <translation>Los %1 trabajadores calculan y se ponen de acuerdo sin esperar.</translation>
    </message>
    <message>
        <source>The checkpoint of step %1 is committed.</source>
        <translation>El punto de control del paso %1 queda confirmado.</translation>
    </message>
    <message>
        <source>The workers restore the checkpoint of step %1.</source>
        <translation>Los trabajadores restauran el punto de control del paso %1.</translation>
    </message>
    <message>
        <source>The replicas now differ.</source>
        <translation>Ahora las réplicas son distintas.</translation>
    </message>
</context>
<context>
    <name>Syllabus</name>
    <message>
        <source>speedup is not automatic</source>
        <translation>la aceleración no es automática</translation>
    </message>
    <message>
        <source>every replica holds the whole model</source>
        <translation>cada réplica tiene el modelo completo</translation>
    </message>
    <message>
        <source>reductions must be explicit</source>
        <translation>las reducciones deben ser explícitas</translation>
    </message>
    <message>
        <source>a late worker makes the others wait</source>
        <translation>un trabajador que se retrasa hace esperar a los demás</translation>
    </message>
    <message>
        <source>model parallelism moves activations</source>
        <translation>el paralelismo de modelo mueve activaciones</translation>
    </message>
    <message>
        <source>a checkpoint holds everything</source>
        <translation>un punto de control lo guarda todo</translation>
    </message>
    <message>
        <source>a partial file is not a recovery point</source>
        <translation>un archivo parcial no es un punto de recuperación</translation>
    </message>
    <message>
        <source>a fair comparison counts useful work</source>
        <translation>una comparación justa cuenta el trabajo útil</translation>
    </message>
    <message>
        <source>is a small gain worth the cost?</source>
        <translation>¿vale la pena una pequeña mejora?</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>compute</source>
        <translation>cálculo</translation>
    </message>
    <message>
        <source>communicate</source>
        <translation>comunicación</translation>
    </message>
    <message>
        <source>update</source>
        <translation>actualización</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>espera</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>pausa</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>punto de control</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallo</translation>
    </message>
</context>
<context>
    <name>View</name>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>Aceleración</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Puntos de control</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>&lt;h2&gt;Welcome to the lab&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Te damos la bienvenida al laboratorio&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Several &lt;b&gt;workers&lt;/b&gt; are training one small neural network together. Each holds a full copy (a &lt;i&gt;replica&lt;/i&gt;) of the model and learns from its own share of the data. After every step they must agree on one combined gradient, or their copies stop being the same model.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Varios &lt;b&gt;trabajadores&lt;/b&gt; entrenan juntos una pequeña red neuronal. Cada uno tiene una copia completa del modelo (una &lt;i&gt;réplica&lt;/i&gt;) y aprende de su propia parte de los datos. Después de cada paso deben ponerse de acuerdo en un único gradiente combinado; si no, sus copias dejan de ser el mismo modelo.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;What you see&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Lo que ves&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Cluster&lt;/b&gt;: the workers, connected the way the chosen collective connects them. Colour, letter and label say what each worker is doing. Green dots are chunks of gradient on their way.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Clúster&lt;/b&gt;: los trabajadores, conectados como los conecta la colectiva elegida. El color, la letra y la etiqueta indican qué hace cada trabajador. Los puntos verdes son trozos de gradiente en camino.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Timeline&lt;/b&gt;: one lane per worker. Hatched red is &lt;i&gt;waiting&lt;/i&gt;: time a worker spends doing nothing because someone else is not ready.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Línea de tiempo&lt;/b&gt;: una franja por trabajador. El rayado rojo es &lt;i&gt;espera&lt;/i&gt;: tiempo en que un trabajador no hace nada porque otro todavía no está listo.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Training&lt;/b&gt;: the loss going down, and what the model has learned so far.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Entrenamiento&lt;/b&gt;: cómo baja la pérdida y lo que el modelo ha aprendido hasta ahora.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Speedup&lt;/b&gt;: how much faster more workers make a step, against the ideal line.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Aceleración&lt;/b&gt;: cuánto más rápido es un paso con más trabajadores, comparado con la línea ideal.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Checkpoints&lt;/b&gt;: the files on disk, each in its state of the commit protocol; after a crash, the recovery&apos;s scan for the newest complete checkpoint.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Puntos de control&lt;/b&gt;: los archivos en el disco, cada uno en su estado del protocolo de confirmación; tras un fallo, la búsqueda que hace la recuperación del punto de control completo más reciente.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Try this&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Prueba esto&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Press &lt;b&gt;Space&lt;/b&gt; to play, &lt;b&gt;Right&lt;/b&gt;/&lt;b&gt;Left&lt;/b&gt; to step through events one by one.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Pulsa &lt;b&gt;Espacio&lt;/b&gt; para reproducir, y la flecha &lt;b&gt;derecha&lt;/b&gt;/&lt;b&gt;izquierda&lt;/b&gt; para recorrer los eventos uno a uno.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Click a worker and slow it down: watch the others start to wait.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Haz clic en un trabajador y ralentízalo: verás cómo los demás empiezan a esperar.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Set the collective to &lt;i&gt;none&lt;/i&gt; and run: the replicas drift apart.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Pon la colectiva en &lt;i&gt;ninguna&lt;/i&gt; y ejecuta: las réplicas se separan.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;Press &lt;b&gt;F11&lt;/b&gt; for presentation mode.&lt;/li&gt;</source>
        <translation>&lt;li&gt;Pulsa &lt;b&gt;F11&lt;/b&gt; para el modo presentación.&lt;/li&gt;</translation>
    </message>
    <message>
        <source>&lt;li&gt;&lt;b&gt;Memory&lt;/b&gt;: what each worker holds at the playhead, kind by kind: parameters, gradients, optimizer state, activations.&lt;/li&gt;</source>
        <translation>&lt;li&gt;&lt;b&gt;Memoria&lt;/b&gt;: lo que guarda cada trabajador en el cabezal de reproducción, clase por clase: parámetros, gradientes, estado del optimizador, activaciones.&lt;/li&gt;</translation>
    </message>
</context>
<context>
    <name>lockstep::app::AnswerHistogram</name>
    <message>
        <source>The class&apos;s answers</source>
        <translation>Las respuestas de la clase</translation>
    </message>
    <message>
        <source>%1  ✓ right</source>
        <translation>%1  ✓ correcta</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ChangeDescription</name>
    <message>
        <source>rule → %1</source>
        <translation>regla → %1</translation>
    </message>
    <message>
        <source>collective → %1</source>
        <translation>colectiva → %1</translation>
    </message>
    <message>
        <source>learning rate → %1</source>
        <translation>tasa de aprendizaje → %1</translation>
    </message>
    <message>
        <source>slowdown → %1</source>
        <translation>ralentización → %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>agreement → %1</source>
        <translation>acuerdo → %1</translation>
    </message>
    <message>
        <source>staleness bound → %1</source>
        <translation>límite de obsolescencia → %1</translation>
    </message>
    <message>
        <source>averaging every %1 steps</source>
        <translation>promedio cada %1 pasos</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 trabajadores</translation>
    </message>
    <message>
        <source>batch → %1 per worker</source>
        <translation>lote → %1 por trabajador</translation>
    </message>
    <message>
        <source>communication → %1 s in all</source>
        <translation>comunicación → %1 s en total</translation>
    </message>
    <message>
        <source>one worker&apos;s compute → %1 s</source>
        <translation>cómputo de un trabajador → %1 s</translation>
    </message>
    <message>
        <source>seed → %1</source>
        <translation>semilla → %1</translation>
    </message>
    <message>
        <source>layers → %1</source>
        <translation>capas → %1</translation>
    </message>
    <message>
        <source>clock → %1</source>
        <translation>reloj → %1</translation>
    </message>
    <message>
        <source>a random straggler with chance %1 per worker and step</source>
        <translation>un rezagado al azar con probabilidad %1 por trabajador y paso</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 pasos</translation>
    </message>
    <message>
        <source>sharding → %1</source>
        <translation>fragmentación → %1</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ClassQuizDialog</name>
    <message>
        <source>Start a Class Quiz</source>
        <translation>Iniciar un cuestionario de clase</translation>
    </message>
    <message>
        <source>Quiz bank</source>
        <translation>Banco de preguntas</translation>
    </message>
    <message>
        <source>&amp;Quiz:</source>
        <translation>&amp;Cuestionario:</translation>
    </message>
    <message>
        <source>Questions to ask</source>
        <translation>Preguntas que se harán</translation>
    </message>
    <message>
        <source>Q&amp;uestions:</source>
        <translation>&amp;Preguntas:</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Puerto</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>P&amp;uerto:</translation>
    </message>
    <message>
        <source>Every classroom address of this computer</source>
        <translation>Todas las direcciones de aula de este ordenador</translation>
    </message>
    <message>
        <source>Address to listen on</source>
        <translation>Dirección en la que escuchar</translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation>&amp;Escuchar en:</translation>
    </message>
    <message>
        <source>Students open the address shown on the projector, on this classroom&apos;s network. Nothing leaves it.</source>
        <translation>Los estudiantes abren la dirección que aparece en el proyector, en la red de esta aula. Nada sale de ella.</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Iniciar</translation>
    </message>
    <message>
        <source>Tick at least one question.</source>
        <translation>Marca al menos una pregunta.</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ClassWindow</name>
    <message>
        <source>Class Quiz: %1</source>
        <translation>Cuestionario de clase: %1</translation>
    </message>
    <message>
        <source>Join address</source>
        <translation>Dirección para unirse</translation>
    </message>
    <message>
        <source>Join code</source>
        <translation>Código para unirse</translation>
    </message>
    <message>
        <source>Students who have joined</source>
        <translation>Estudiantes que se han unido</translation>
    </message>
    <message>
        <source>&amp;Lock the lobby</source>
        <translation>&amp;Bloquear la sala de espera</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Pregunta</translation>
    </message>
    <message>
        <source>Answers so far</source>
        <translation>Respuestas hasta ahora</translation>
    </message>
    <message>
        <source>The answer and the engine&apos;s working</source>
        <translation>La respuesta y el cálculo del motor</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Estudiante</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Aciertos</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Puntuaciones</translation>
    </message>
    <message>
        <source>Replay in the &amp;Lab</source>
        <translation>Repetir en el &amp;laboratorio</translation>
    </message>
    <message>
        <source>&amp;Export Results…</source>
        <translation>&amp;Exportar resultados…</translation>
    </message>
    <message>
        <source>Join at %1</source>
        <translation>Únete en %1</translation>
    </message>
    <message>
        <source>Code: %1</source>
        <translation>Código: %1</translation>
    </message>
    <message>
        <source>1 student has joined</source>
        <translation>1 estudiante se ha unido</translation>
    </message>
    <message>
        <source>%1 students have joined</source>
        <translation>%1 estudiantes se han unido</translation>
    </message>
    <message>
        <source>Question %1 of %2 · %3</source>
        <translation>Pregunta %1 de %2 · %3</translation>
    </message>
    <message>
        <source>%1 questions are ready. Open the first when the class has joined.</source>
        <translation>Hay %1 preguntas listas. Abre la primera cuando la clase se haya unido.</translation>
    </message>
    <message>
        <source>
(Every student sees their own numbers; these are %1&apos;s.)</source>
        <translation>
(Cada estudiante ve sus propios números; estos son los de %1.)</translation>
    </message>
    <message>
        <source>%1 of %2 answered</source>
        <translation>%1 de %2 han respondido</translation>
    </message>
    <message>
        <source>Answer: %1</source>
        <translation>Respuesta: %1</translation>
    </message>
    <message>
        <source>
The engine: %1</source>
        <translation>
El motor: %1</translation>
    </message>
    <message>
        <source>&amp;Open the First Question</source>
        <translation>&amp;Abrir la primera pregunta</translation>
    </message>
    <message>
        <source>&amp;Close the Question</source>
        <translation>&amp;Cerrar la pregunta</translation>
    </message>
    <message>
        <source>Re&amp;veal the Answer</source>
        <translation>&amp;Revelar la respuesta</translation>
    </message>
    <message>
        <source>&amp;Next Question</source>
        <translation>&amp;Siguiente pregunta</translation>
    </message>
    <message>
        <source>&amp;Show the Scores</source>
        <translation>&amp;Mostrar las puntuaciones</translation>
    </message>
    <message>
        <source>The Quiz Is Over</source>
        <translation>El cuestionario ha terminado</translation>
    </message>
    <message>
        <source>The results could not be written to %1: %2</source>
        <translation>No se pudieron guardar los resultados en %1: %2</translation>
    </message>
    <message>
        <source>Export Results</source>
        <translation>Exportar resultados</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>End the class quiz? Export the results first if you want to keep them.</source>
        <translation>¿Terminar el cuestionario de clase? Si quieres conservar los resultados, expórtalos antes.</translation>
    </message>
    <message>
        <source>1 student has joined · lobby locked</source>
        <translation>1 estudiante se ha unido · sala de espera bloqueada</translation>
    </message>
    <message>
        <source>%1 students have joined · lobby locked</source>
        <translation>%1 estudiantes se han unido · sala de espera bloqueada</translation>
    </message>
    <message>
        <source>Every answer is also saved, as it comes, in %1.</source>
        <translation>Cada respuesta también se guarda, según llega, en %1.</translation>
    </message>
    <message>
        <source>Answers are not saved as they come (%1): export the results before closing.</source>
        <translation>Las respuestas no se guardan según llegan (%1): exporta los resultados antes de cerrar.</translation>
    </message>
    <message>
        <source>End the class quiz? Every answer is kept in %1; export the results for a spreadsheet first if you want one.</source>
        <translation>¿Terminar el cuestionario de clase? Cada respuesta queda en %1; exporta antes los resultados si quieres una hoja de cálculo.</translation>
    </message>
    <message>
        <source>Class Quiz</source>
        <translation>Cuestionario de clase</translation>
    </message>
    <message>
        <source>The quiz&apos;s journal %1 could not be written: %2. Answers are refused from now on; export the results and start the quiz again.</source>
        <translation>No se pudo escribir el diario del cuestionario %1: %2. Desde ahora se rechazan las respuestas; exporta los resultados y empieza el cuestionario de nuevo.</translation>
    </message>
    <message>
        <source>&amp;Remove Selected</source>
        <translation>&amp;Quitar seleccionados</translation>
    </message>
    <message>
        <source>Re&amp;ports…</source>
        <translation>In&amp;formes…</translation>
    </message>
    <message>
        <source>One page per student, with their numbers, their answers and the working, to print or send.</source>
        <translation>Una página por estudiante, con sus números, sus respuestas y el cálculo, para imprimir o enviar.</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Atrás</translation>
    </message>
    <message>
        <source>The question before, as it was left</source>
        <translation>La pregunta anterior, tal como se dejó</translation>
    </message>
    <message>
        <source>S&amp;kip</source>
        <translation>Sa&amp;ltar</translation>
    </message>
    <message>
        <source>Close this question without revealing it and go on</source>
        <translation>Cerrar esta pregunta sin resolverla y seguir</translation>
    </message>
    <message>
        <source>Names stay off the projector until you tick this.</source>
        <translation>Los nombres no salen en el proyector hasta que marques esto.</translation>
    </message>
    <message>
        <source>At the end, the students by score, with their names (needs names shown); otherwise how many got each score.</source>
        <translation>Al final, los estudiantes por puntuación, con sus nombres (si se muestran los nombres); si no, cuántos obtuvieron cada puntuación.</translation>
    </message>
    <message>
        <source>Show the &amp;histogram</source>
        <translation>Mostrar el &amp;histograma</translation>
    </message>
    <message>
        <source>No timer</source>
        <translation>Sin tiempo</translation>
    </message>
    <message>
        <source>Timer: %1:%2</source>
        <translation>Tiempo: %1:%2</translation>
    </message>
    <message>
        <source>Timer per question</source>
        <translation>Tiempo por pregunta</translation>
    </message>
    <message>
        <source> · closes in %1:%2</source>
        <translation> · se cierra en %1:%2</translation>
    </message>
    <message>
        <source>
(Every student sees their own numbers; these are one student&apos;s.)</source>
        <translation>
(Cada estudiante ve sus propios números; estos son los de un estudiante.)</translation>
    </message>
    <message>
        <source>1 student</source>
        <translation>1 estudiante</translation>
    </message>
    <message>
        <source>%1 students</source>
        <translation>%1 estudiantes</translation>
    </message>
    <message>
        <source>Students</source>
        <translation>Estudiantes</translation>
    </message>
    <message>
        <source>The reports could not be written to %1: %2</source>
        <translation>No se pudieron escribir los informes en %1: %2</translation>
    </message>
    <message>
        <source>Save the Reports</source>
        <translation>Guardar los informes</translation>
    </message>
    <message>
        <source>Web pages (*.html)</source>
        <translation>Páginas web (*.html)</translation>
    </message>
    <message>
        <source>Remove the %1 selected students from the quiz?</source>
        <translation>¿Quitar del cuestionario a los %1 estudiantes seleccionados?</translation>
    </message>
    <message>
        <source>Show na&amp;mes</source>
        <translation>Mostrar &amp;nombres</translation>
    </message>
    <message>
        <source>Show the rank&amp;ing</source>
        <translation>Mostrar la clasifica&amp;ción</translation>
    </message>
    <message>
        <source>%1 wrong codes tried; the code changed %2 times.</source>
        <translation>%1 códigos incorrectos probados; el código cambió %2 veces.</translation>
    </message>
    <message>
        <source>  (%1 wrong tries)</source>
        <translation>  (%1 intentos fallidos)</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ControlsPanel</name>
    <message>
        <source>equal</source>
        <translation>iguales</translation>
    </message>
    <message>
        <source>all 1 (full speed)</source>
        <translation>todos a 1 (velocidad máxima)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ejecutar</translation>
    </message>
    <message>
        <source>&amp;Workers</source>
        <translation>&amp;Trabajadores</translation>
    </message>
    <message>
        <source>How many replicas train together</source>
        <translation>Cuántas réplicas entrenan juntas</translation>
    </message>
    <message>
        <source>&amp;Collective</source>
        <translation>&amp;Colectiva</translation>
    </message>
    <message>
        <source>How gradients travel between workers; none means no synchronisation</source>
        <translation>Cómo viajan los gradientes entre los trabajadores; ninguna significa sin sincronización</translation>
    </message>
    <message>
        <source>Re&amp;duction rule</source>
        <translation>Regla de re&amp;ducción</translation>
    </message>
    <message>
        <source>How gradients are combined: sum, equal-weight mean, or mean weighted by samples</source>
        <translation>Cómo se combinan los gradientes: suma, media de igual peso o media ponderada por muestras</translation>
    </message>
    <message>
        <source>Learning r&amp;ate</source>
        <translation>T&amp;asa de aprendizaje</translation>
    </message>
    <message>
        <source>How far each update moves the weights along the combined gradient</source>
        <translation>Cuánto mueve cada actualización los pesos en la dirección del gradiente combinado</translation>
    </message>
    <message>
        <source>Shard si&amp;zes</source>
        <translation>Tamaños de &amp;fragmento</translation>
    </message>
    <message>
        <source>Rows of data per worker, separated by commas; empty for equal shards</source>
        <translation>Filas de datos por trabajador, separadas por comas; vacío para fragmentos iguales</translation>
    </message>
    <message>
        <source>Sl&amp;owdown</source>
        <translation>&amp;Ralentización</translation>
    </message>
    <message>
        <source>Per worker, how many times slower it computes, e.g. 1,1,3,1</source>
        <translation>Para cada trabajador, cuántas veces más despacio calcula, p. ej. 1,1,3,1</translation>
    </message>
    <message>
        <source>C&amp;lock</source>
        <translation>Re&amp;loj</translation>
    </message>
    <message>
        <source>Modelled: the cost model, the same everywhere. Measured: this computer&apos;s real time</source>
        <translation>Modelado: el modelo de costes, igual en todas partes. Medido: el tiempo real de este ordenador</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>&amp;Semilla</translation>
    </message>
    <message>
        <source>Seeds the data, the initial weights and every random choice</source>
        <translation>Genera los datos, los pesos iniciales y cada elección aleatoria</translation>
    </message>
    <message>
        <source>S&amp;teps</source>
        <translation>&amp;Pasos</translation>
    </message>
    <message>
        <source>Training steps to run</source>
        <translation>Pasos de entrenamiento que se ejecutan</translation>
    </message>
    <message>
        <source>A&amp;greement</source>
        <translation>Ac&amp;uerdo</translation>
    </message>
    <message>
        <source>How often the workers agree. bsp: every step. ssp: a worker waits only when the slowest is more than the bound behind. async: never; each gradient is applied as it arrives. local: each replica takes H steps alone, then they average</source>
        <translation>Con qué frecuencia se ponen de acuerdo los trabajadores. bsp: en cada paso. ssp: un trabajador solo espera cuando el más lento va más atrasado que el límite. async: nunca; cada gradiente se aplica en cuanto llega. local: cada réplica da H pasos por su cuenta y luego se promedian</translation>
    </message>
    <message>
        <source>Stale&amp;ness (S)</source>
        <translation>&amp;Obsolescencia (S)</translation>
    </message>
    <message>
        <source>ssp: how many steps a worker may run ahead of the slowest. local: the steps each replica takes on its own between two averagings</source>
        <translation>ssp: cuántos pasos puede adelantarse un trabajador al más lento. local: los pasos que da cada réplica por su cuenta entre dos promedios</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecutar</translation>
    </message>
    <message>
        <source>Start a new run with these settings</source>
        <translation>Inicia una nueva ejecución con estos ajustes</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>Controles</translation>
    </message>
    <message>
        <source>Average ever&amp;y</source>
        <translation>Pro&amp;mediar cada</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> pasos</translation>
    </message>
    <message>
        <source>Shard sizes</source>
        <translation>Tamaños de fragmento</translation>
    </message>
    <message>
        <source>Slowdown</source>
        <translation>Ralentización</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a number (write numbers separated by commas)</source>
        <translation>%1: «%2» no es un número (escribe números separados por comas)</translation>
    </message>
    <message>
        <source>Shard sizes: each must be a whole number of rows, at least 1</source>
        <translation>Tamaños de fragmento: cada uno debe ser un número entero de filas, al menos 1</translation>
    </message>
    <message>
        <source>workers %1</source>
        <translation>trabajadores %1</translation>
    </message>
    <message>
        <source>shard sizes</source>
        <translation>tamaños de los fragmentos</translation>
    </message>
    <message>
        <source>clock</source>
        <translation>reloj</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>semilla %1</translation>
    </message>
    <message>
        <source>Waiting for a new run: %1. Press Enter or Run to start it.</source>
        <translation>Esperando una nueva ejecución: %1. Pulsa Intro o Ejecutar para iniciarla.</translation>
    </message>
    <message>
        <source>steps %1</source>
        <translation>pasos %1</translation>
    </message>
    <message>
        <source> KB</source>
        <translation> KB</translation>
    </message>
    <message>
        <source>one bucket</source>
        <translation>un cubo</translation>
    </message>
    <message>
        <source>during backward</source>
        <translation>a la vez</translation>
    </message>
    <message>
        <source>after backward</source>
        <translation>después</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>&amp;Buckets</source>
        <translation>Cu&amp;bos</translation>
    </message>
    <message>
        <source>Gradients leave in buckets of at most this size, the last layers first; one bucket: the whole gradient after backward</source>
        <translation>Los gradientes salen en cubos de como mucho este tamaño, las últimas capas primero; un cubo: el gradiente entero tras la pasada hacia atrás</translation>
    </message>
    <message>
        <source>When a bucket&apos;s collective starts: as soon as its layers are done, while backward goes on, or after backward</source>
        <translation>Cuándo empieza la colectiva de un cubo: en cuanto sus capas están hechas, mientras sigue la pasada hacia atrás, o tras ella</translation>
    </message>
    <message>
        <source>Acc&amp;umulate</source>
        <translation>Acumulac&amp;ión</translation>
    </message>
    <message>
        <source>Micro-batches each worker adds up before one reduction; the batch is then the micro-batch</source>
        <translation>Microlotes que cada trabajador suma antes de una reducción; el lote es entonces el microlote</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>cubos</translation>
    </message>
    <message>
        <source>overlap</source>
        <translation>solapamiento</translation>
    </message>
    <message>
        <source>accumulation %1</source>
        <translation>acumulación %1</translation>
    </message>
    <message>
        <source>Overlap &amp;mode</source>
        <translation>Solapamie&amp;nto</translation>
    </message>
    <message>
        <source>ZeRO 1: optimizer</source>
        <translation>ZeRO 1: optimizador</translation>
    </message>
    <message>
        <source>ZeRO 2: + gradients</source>
        <translation>ZeRO 2: + gradientes</translation>
    </message>
    <message>
        <source>ZeRO 3: + parameters</source>
        <translation>ZeRO 3: + parámetros</translation>
    </message>
    <message>
        <source>none (full replicas)</source>
        <translation>ninguna (réplicas completas)</translation>
    </message>
    <message>
        <source>Sharding</source>
        <translation>Fragmentación</translation>
    </message>
    <message>
        <source>What each worker keeps only its share of: ZeRO 1 the optimizer state, ZeRO 2 the gradients too, ZeRO 3 (FSDP) the parameters too, gathered layer by layer when needed</source>
        <translation>De qué guarda cada trabajador solo su parte: ZeRO 1 el estado del optimizador, ZeRO 2 también los gradientes, ZeRO 3 (FSDP) también los parámetros, que se reúnen capa a capa cuando hacen falta</translation>
    </message>
    <message>
        <source>sharding</source>
        <translation>fragmentación</translation>
    </message>
    <message>
        <source>as the model</source>
        <translation>como el modelo</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>On the wire</source>
        <translation>En el cable</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>precisión</translation>
    </message>
    <message>
        <source>wire format</source>
        <translation>formato en el cable</translation>
    </message>
    <message>
        <source>The numbers the model trains in: float64 (8 bytes a number), or float32 (4 bytes, fewer digits)</source>
        <translation>Los números con los que entrena el modelo: float64 (8 bytes por número) o float32 (4 bytes, menos cifras)</translation>
    </message>
    <message>
        <source>The format the gradients travel and are added in: float32 4 bytes a number, float16 and bfloat16 2; each sum is rounded to it, and a step whose sum overflows is skipped</source>
        <translation>El formato en que viajan y se suman los gradientes: float32 4 bytes por número, float16 y bfloat16 2; cada suma se redondea a él, y un paso cuya suma se desborda se omite</translation>
    </message>
</context>
<context>
    <name>lockstep::app::EngineController</name>
    <message>
        <source>The engine knows no action “%1”.</source>
        <translation>El motor no conoce ninguna acción “%1”.</translation>
    </message>
    <message>
        <source>Model-parallel runs take no injected faults: every stage holds a part of the one model. Use data parallelism to study failures.</source>
        <translation>Las ejecuciones con paralelismo de modelo no admiten fallos inyectados: cada etapa tiene una parte del único modelo. Usa el paralelismo de datos para estudiar los fallos.</translation>
    </message>
    <message>
        <source>There is no run yet: press Run first.</source>
        <translation>Todavía no hay ninguna ejecución: pulsa antes Ejecutar.</translation>
    </message>
    <message>
        <source>There is no worker %1.</source>
        <translation>No existe el trabajador %1.</translation>
    </message>
    <message>
        <source>checkpoint: cannot create a directory for this run&apos;s checkpoints in %1</source>
        <translation>punto de control: no se puede crear un directorio para los puntos de control de esta ejecución en %1</translation>
    </message>
</context>
<context>
    <name>lockstep::app::LabSession</name>
    <message>
        <source>This is %1: it already happened, so it cannot be changed. Press Run to run its scenario live on threads, and change that run.</source>
        <translation>Esto es %1: ya ocurrió, así que no se puede cambiar. Pulsa Ejecutar para ejecutar su escenario en vivo con hilos, y cambia esa ejecución.</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>paso %1: %2</translation>
    </message>
    <message>
        <source>At step %1: %2. Ctrl+Z undoes it.</source>
        <translation>En el paso %1: %2. Ctrl+Z lo deshace.</translation>
    </message>
    <message>
        <source>%1: “%2” only changes when a run starts, so the run starts again from step 0.</source>
        <translation>%1: “%2” solo cambia cuando empieza una ejecución, así que la ejecución vuelve a empezar desde el paso 0.</translation>
    </message>
    <message>
        <source>The run stopped: %1</source>
        <translation>La ejecución se detuvo: %1</translation>
    </message>
    <message>
        <source>The restores could not be compared: %1</source>
        <translation>No se pudieron comparar las restauraciones: %1</translation>
    </message>
    <message>
        <source>a recording of 1 process</source>
        <translation>una grabación de 1 proceso</translation>
    </message>
    <message>
        <source>a recording of %1 processes</source>
        <translation>una grabación de %1 procesos</translation>
    </message>
    <message>
        <source>on 1 host (%1), measured</source>
        <translation>en 1 equipo (%1), medida</translation>
    </message>
    <message>
        <source>on %1 hosts (%2), measured</source>
        <translation>en %1 equipos (%2), medida</translation>
    </message>
    <message>
        <source>Playing back %1: it happened as shown, so it cannot be changed. Run starts its scenario live.</source>
        <translation>Reproduciendo %1: ocurrió tal como se muestra, así que no se puede cambiar. Ejecutar inicia su escenario en vivo.</translation>
    </message>
    <message>
        <source>Once the run ends, its crash is rerun with both restores and drawn here.</source>
        <translation>Cuando termine la ejecución, su fallo se vuelve a ejecutar con las dos restauraciones y se dibuja aquí.</translation>
    </message>
    <message>
        <source>Running %1 with %2 workers…</source>
        <translation>Ejecutando %1 con %2 trabajadores…</translation>
    </message>
    <message>
        <source>Finished %1 steps in %2 on the %3 clock; final loss %4; replicas %5</source>
        <translation>Terminados %1 pasos en %2 con el reloj %3; pérdida final %4; réplicas %5</translation>
    </message>
    <message>
        <source>aligned</source>
        <translation>alineadas</translation>
    </message>
    <message>
        <source>differ</source>
        <translation>distintas</translation>
    </message>
    <message>
        <source> · changed at %1 (Ctrl+Z undoes it)</source>
        <translation> · cambiado en %1 (Ctrl+Z lo deshace)</translation>
    </message>
    <message>
        <source>Rerunning the crash with both restores…</source>
        <translation>Volviendo a ejecutar el fallo con las dos restauraciones…</translation>
    </message>
    <message>
        <source>%1, %2 lanes, %3 micro-batches %4</source>
        <translation>%1, %2 franjas, %3 microlotes %4</translation>
    </message>
    <message>
        <source>%1, %2 lanes</source>
        <translation>%1, %2 franjas</translation>
    </message>
    <message>
        <source>%1 workers, %2</source>
        <translation>%1 trabajadores, %2</translation>
    </message>
    <message>
        <source>From step 0 again with the change: %1. The run before is the faint line; Ctrl+Z undoes it.</source>
        <translation>Otra vez desde el paso 0 con el cambio: %1. La ejecución anterior es la línea tenue; Ctrl+Z lo deshace.</translation>
    </message>
    <message>
        <source>Undone: the run, its settings and the playhead are back as they were before the last change. Ctrl+Shift+Z redoes it.</source>
        <translation>Deshecho: la ejecución, sus ajustes y el cabezal vuelven a estar como antes del último cambio. Ctrl+Mayús+Z lo rehace.</translation>
    </message>
    <message>
        <source>Redone: the change is back. Ctrl+Z undoes it again.</source>
        <translation>Rehecho: el cambio ha vuelto. Ctrl+Z lo deshace otra vez.</translation>
    </message>
    <message>
        <source>Nothing to change: the run already trains this way.</source>
        <translation>Nada que cambiar: la ejecución ya entrena así.</translation>
    </message>
    <message>
        <source>Finished %1 steps in %2 on the %3 clock; final loss %4</source>
        <translation>Terminados %1 pasos en %2 con el reloj %3; pérdida final %4</translation>
    </message>
</context>
<context>
    <name>lockstep::app::LessonPane</name>
    <message>
        <source>Lessons</source>
        <translation>Lecciones</translation>
    </message>
    <message>
        <source>Choose a lesson…</source>
        <translation>Elige una lección…</translation>
    </message>
    <message>
        <source>Previous lesson</source>
        <translation>Lección anterior</translation>
    </message>
    <message>
        <source>Next lesson</source>
        <translation>Lección siguiente</translation>
    </message>
    <message>
        <source>Your name or student ID</source>
        <translation>Tu nombre o tu número de estudiante</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Estudiante</translation>
    </message>
    <message>
        <source>Choose your name, or type a new one and press Enter: each student has their own progress and their own numbers in the exercises</source>
        <translation>Elige tu nombre, o escribe uno nuevo y pulsa Intro: cada estudiante tiene su propio progreso y sus propios números en los ejercicios</translation>
    </message>
    <message>
        <source>&amp;Student:</source>
        <translation>Estudia&amp;nte:</translation>
    </message>
    <message>
        <source>Loc&amp;k what the lesson fixes</source>
        <translation>&amp;Bloquear lo que fija la lección</translation>
    </message>
    <message>
        <source>Grey out the controls this lesson&apos;s scenario fixes, for every student until a teacher unlocks them</source>
        <translation>Desactiva los controles que fija el escenario de esta lección, para todos los estudiantes, hasta que un docente los desbloquee</translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation>Mostrar la respuesta</translation>
    </message>
    <message>
        <source>The current exercise&apos;s answer and reasoning, for this student</source>
        <translation>La respuesta y el razonamiento del ejercicio actual, para este estudiante</translation>
    </message>
    <message>
        <source>Reset this student…</source>
        <translation>Restablecer a este estudiante…</translation>
    </message>
    <message>
        <source>Class progress as CSV…</source>
        <translation>Progreso de la clase como CSV…</translation>
    </message>
    <message>
        <source>Print worksheets…</source>
        <translation>Imprimir hojas de ejercicios…</translation>
    </message>
    <message>
        <source>A page per student with their own numbers, and an answer key, for the current exercise&apos;s quiz bank</source>
        <translation>Una página por estudiante con sus propios números, y una hoja de respuestas, para el banco de preguntas del ejercicio actual</translation>
    </message>
    <message>
        <source>Leave teacher mode</source>
        <translation>Salir del modo docente</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>Docente</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lección</translation>
    </message>
    <message>
        <source>Exercise</source>
        <translation>Ejercicio</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>Tu respuesta</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Comprobar</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>Pista</translation>
    </message>
    <message>
        <source>Run it</source>
        <translation>Ejecútalo</translation>
    </message>
    <message>
        <source>Predict first, then run the scenario to see the engine&apos;s result</source>
        <translation>Primero predice; luego ejecuta el escenario para ver el resultado del motor</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Comentarios</translation>
    </message>
    <message>
        <source>Exercises</source>
        <translation>Ejercicios</translation>
    </message>
    <message>
        <source>Answers to choose from</source>
        <translation>Respuestas para elegir</translation>
    </message>
    <message>
        <source>Reset this student</source>
        <translation>Restablecer a este estudiante</translation>
    </message>
    <message>
        <source>Forget every lesson %1 visited and every answer %1 gave?</source>
        <translation>¿Olvidar todas las lecciones que visitó %1 y todas las respuestas que dio %1?</translation>
    </message>
    <message>
        <source> · your own</source>
        <translation> · tuya</translation>
    </message>
    <message>
        <source>no lesson &apos;%1&apos; (known: %2)</source>
        <translation>no existe la lección «%1» (conocidas: %2)</translation>
    </message>
    <message>
        <source>“%1” is not a lab action; open it in a web browser.</source>
        <translation>“%1” no es una acción del laboratorio; ábrelo en un navegador web.</translation>
    </message>
    <message>
        <source>There is no quiz bank %1.</source>
        <translation>No existe el banco de preguntas %1.</translation>
    </message>
    <message>
        <source>There is no question %1/%2.</source>
        <translation>No existe la pregunta %1/%2.</translation>
    </message>
    <message>
        <source>This exercise (%1) cannot be found.</source>
        <translation>No se encuentra este ejercicio (%1).</translation>
    </message>
    <message>
        <source>Solved (score %1). You may answer again.</source>
        <translation>Resuelto (puntuación %1). Puedes volver a responder.</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) so far.</source>
        <translation>
            <numerusform>%n intento hasta ahora.</numerusform>
            <numerusform>%n intentos hasta ahora.</numerusform>
        </translation>
    </message>
    <message>
        <source>After %1 attempts, here is the reasoning: %2 The answer is %3.</source>
        <translation>Después de %1 intentos, este es el razonamiento: %2 La respuesta es %3.</translation>
    </message>
    <message>
        <source>Now press Run it and compare with the engine.</source>
        <translation>Ahora pulsa Ejecútalo y compara con el motor.</translation>
    </message>
    <message>
        <source>Hint %1: %2</source>
        <translation>Pista %1: %2</translation>
    </message>
    <message>
        <source>Working as %1: your own progress and your own numbers.</source>
        <translation>Trabajas como %1: tu propio progreso y tus propios números.</translation>
    </message>
    <message>
        <source>For %1 the answer is %2. %3</source>
        <translation>Para %1, la respuesta es %2. %3</translation>
    </message>
    <message>
        <source>this student</source>
        <translation>este estudiante</translation>
    </message>
    <message>
        <source>Class progress as CSV</source>
        <translation>Progreso de la clase como CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>%1: cannot write the class&apos;s progress</source>
        <translation>%1: no se puede guardar el progreso de la clase</translation>
    </message>
    <message numerus="yes">
        <source>The progress of %n student(s) written to %1</source>
        <translation>
            <numerusform>Progreso de %n estudiante guardado en %1</numerusform>
            <numerusform>Progreso de %n estudiantes guardado en %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a lesson with exercises to print its quiz bank.</source>
        <translation>Abre una lección con ejercicios para imprimir su banco de preguntas.</translation>
    </message>
    <message>
        <source>Print worksheets</source>
        <translation>Imprimir hojas de ejercicios</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>Archivos PDF (*.pdf)</translation>
    </message>
    <message numerus="yes">
        <source>Worksheets for %n student(s) in %1, the answers in %2</source>
        <translation>
            <numerusform>Hojas de ejercicios para %n estudiante en %1; las respuestas, en %2</numerusform>
            <numerusform>Hojas de ejercicios para %n estudiantes en %1; las respuestas, en %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Type a number: 2.5, 2,5 and 5/2 all work.</source>
        <translation>Escribe un número: 2.5, 2,5 y 5/2 valen todos.</translation>
    </message>
    <message>
        <source>Choose one answer.</source>
        <translation>Elige una respuesta.</translation>
    </message>
    <message>
        <source>Tick every right answer.</source>
        <translation>Marca todas las respuestas correctas.</translation>
    </message>
    <message>
        <source>Type the letters in order, e.g. c, a, b, …</source>
        <translation>Escribe las letras en orden, p. ej. c, a, b, …</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s) of the quiz under the page; the first is shown, the answer field is ready.</source>
        <translation>
            <numerusform>%n pregunta del cuestionario bajo la página; se muestra, el campo de respuesta está listo.</numerusform>
            <numerusform>%n preguntas del cuestionario bajo la página; se muestra la primera, el campo de respuesta está listo.</numerusform>
        </translation>
    </message>
    <message>
        <source>The exercise is under the page; the answer field is ready.</source>
        <translation>El ejercicio está bajo la página; el campo de respuesta está listo.</translation>
    </message>
    <message>
        <source>The worked-example calculator is open: change a figure and see the time and the speedup.</source>
        <translation>La calculadora del ejemplo resuelto está abierta: cambia una cifra y mira el tiempo y la aceleración.</translation>
    </message>
    <message>
        <source>The study trains each model of the lesson on the same data.</source>
        <translation>El estudio entrena cada modelo de la lección con los mismos datos.</translation>
    </message>
</context>
<context>
    <name>lockstep::app::MainWindow</name>
    <message>
        <source>There is no worker %1 in this scenario.</source>
        <translation>En este escenario no existe el trabajador %1.</translation>
    </message>
    <message>
        <source>restores bring back the whole state</source>
        <translation>las restauraciones recuperan todo el estado</translation>
    </message>
    <message>
        <source>restores bring back the weights alone</source>
        <translation>las restauraciones recuperan solo los pesos</translation>
    </message>
    <message>
        <source>A pipeline of %1 stages, %2 micro-batches per batch (%3).</source>
        <translation>Un pipeline de %1 etapas, %2 microlotes por lote (%3).</translation>
    </message>
    <message>
        <source>Not possible</source>
        <translation>No es posible</translation>
    </message>
    <message>
        <source>No comparison: %1</source>
        <translation>No hay comparación: %1</translation>
    </message>
    <message>
        <source>Lockstep</source>
        <translation>Lockstep</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lessons that could not be loaded&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Lecciones que no se pudieron cargar&lt;/h3&gt;&lt;p&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lección</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>Controles</translation>
    </message>
    <message>
        <source>settings changed</source>
        <translation>ajustes cambiados</translation>
    </message>
    <message>
        <source>Cannot run</source>
        <translation>No se puede ejecutar</translation>
    </message>
    <message>
        <source>before the change</source>
        <translation>antes del cambio</translation>
    </message>
    <message>
        <source>%1 · %2 s</source>
        <translation>%1 · %2 s</translation>
    </message>
    <message>
        <source>Compared on the modelled clock, the whole run each: %1.</source>
        <translation>Comparadas en el reloj modelado, cada una con la ejecución completa: %1.</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>La ejecución falló</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausa</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>&amp;Reproducir</translation>
    </message>
    <message>
        <source>speed %1×</source>
        <translation>velocidad %1×</translation>
    </message>
    <message>
        <source>Lockstep — %1</source>
        <translation>Lockstep — %1</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>No se puede abrir el escenario</translation>
    </message>
    <message>
        <source>This scenario cannot be used:

%1

The previous scenario is still loaded.</source>
        <translation>Este escenario no se puede usar:

%1

Sigue cargado el escenario anterior.</translation>
    </message>
    <message>
        <source>Lockstep — %1: %2</source>
        <translation>Lockstep — %1: %2</translation>
    </message>
    <message>
        <source>Cannot open the recording</source>
        <translation>No se puede abrir la grabación</translation>
    </message>
    <message>
        <source>This file cannot be played back:

%1</source>
        <translation>Este archivo no se puede reproducir:

%1</translation>
    </message>
    <message>
        <source>Worked example</source>
        <translation>Ejemplo resuelto</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Estudio</translation>
    </message>
    <message numerus="yes">
        <source>%n of your own lesson(s) from %1, after the shipped ones.</source>
        <translation>
            <numerusform>%n lección tuya de %1, después de las incluidas.</numerusform>
            <numerusform>%n lecciones tuyas de %1, después de las incluidas.</numerusform>
        </translation>
    </message>
    <message>
        <source>Left out: %1</source>
        <translation>Omitidas: %1</translation>
    </message>
    <message>
        <source>Your Own Lessons Folder</source>
        <translation>Carpeta de tus propias lecciones</translation>
    </message>
    <message>
        <source>About Lockstep</source>
        <translation>Acerca de Lockstep</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lockstep %1&lt;/h3&gt;&lt;p&gt;A lab that shows why many computers training one model need coordination: real training, split across workers, and what it costs.&lt;/p&gt;&lt;p&gt;Lessons, scenarios and quiz banks: %2&lt;br&gt;Your own lessons: %3&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Lockstep %1&lt;/h3&gt;&lt;p&gt;Un laboratorio que muestra por qué muchos ordenadores que entrenan un mismo modelo necesitan coordinarse: entrenamiento real, repartido entre trabajadores, y lo que cuesta.&lt;/p&gt;&lt;p&gt;Lecciones, escenarios y bancos de preguntas: %2&lt;br&gt;Tus propias lecciones: %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>no encontrados</translation>
    </message>
    <message>
        <source>Set the teacher&apos;s PIN</source>
        <translation>Define el PIN del docente</translation>
    </message>
    <message>
        <source>Choose a PIN of 4 to 12 digits. It protects teacher mode: the lock, the answers and resetting a student.</source>
        <translation>Elige un PIN de 4 a 12 cifras. Protege el modo docente: el bloqueo, las respuestas y el restablecimiento de un estudiante.</translation>
    </message>
    <message>
        <source>The same PIN again:</source>
        <translation>El mismo PIN otra vez:</translation>
    </message>
    <message>
        <source>PIN not set</source>
        <translation>PIN no definido</translation>
    </message>
    <message>
        <source>The two PINs differ.</source>
        <translation>Los dos PIN no coinciden.</translation>
    </message>
    <message>
        <source>A PIN has 4 to 12 digits.</source>
        <translation>Un PIN tiene de 4 a 12 cifras.</translation>
    </message>
    <message>
        <source>Teacher mode</source>
        <translation>Modo docente</translation>
    </message>
    <message>
        <source>The teacher&apos;s PIN:</source>
        <translation>El PIN del docente:</translation>
    </message>
    <message>
        <source>That is not the teacher&apos;s PIN.</source>
        <translation>Ese no es el PIN del docente.</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Clúster</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation>&amp;Abrir escenario…</translation>
    </message>
    <message>
        <source>Open &amp;Recorded Run…</source>
        <translation>Abrir &amp;ejecución grabada…</translation>
    </message>
    <message>
        <source>&amp;Save Scenario…</source>
        <translation>&amp;Guardar escenario…</translation>
    </message>
    <message>
        <source>Your Own &amp;Lessons Folder…</source>
        <translation>Carpeta de tus propias &amp;lecciones…</translation>
    </message>
    <message>
        <source>Export View as &amp;PNG…</source>
        <translation>Exportar vista como &amp;PNG…</translation>
    </message>
    <message>
        <source>Export View as S&amp;VG…</source>
        <translation>Exportar vista como S&amp;VG…</translation>
    </message>
    <message>
        <source>Export &amp;Metrics as CSV…</source>
        <translation>Exportar &amp;métricas como CSV…</translation>
    </message>
    <message>
        <source>Export &amp;Trace (Chrome JSON)…</source>
        <translation>Exportar &amp;traza (JSON de Chrome)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>&amp;Reproducción</translation>
    </message>
    <message>
        <source>&amp;Next Event</source>
        <translation>Evento &amp;siguiente</translation>
    </message>
    <message>
        <source>Pre&amp;vious Event</source>
        <translation>Evento &amp;anterior</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>Res&amp;tablecer</translation>
    </message>
    <message>
        <source>&amp;Faster</source>
        <translation>&amp;Más rápido</translation>
    </message>
    <message>
        <source>&amp;Slower</source>
        <translation>Más &amp;lento</translation>
    </message>
    <message>
        <source>Run &amp;Again</source>
        <translation>Ejecutar de &amp;nuevo</translation>
    </message>
    <message>
        <source>&amp;Compare Ways of Agreeing</source>
        <translation>&amp;Comparar formas de ponerse de acuerdo</translation>
    </message>
    <message>
        <source>Ed&amp;it</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>Modo &amp;presentación</translation>
    </message>
    <message>
        <source>&amp;Lesson Pane</source>
        <translation>Panel de la &amp;lección</translation>
    </message>
    <message>
        <source>&amp;Controls Pane</source>
        <translation>Panel de &amp;controles</translation>
    </message>
    <message>
        <source>&amp;Next Pane</source>
        <translation>Panel &amp;siguiente</translation>
    </message>
    <message>
        <source>&amp;Teacher Mode…</source>
        <translation>Modo &amp;docente…</translation>
    </message>
    <message>
        <source>Class &amp;Quiz</source>
        <translation>&amp;Cuestionario de clase</translation>
    </message>
    <message>
        <source>&amp;Start a Class Quiz…</source>
        <translation>&amp;Iniciar un cuestionario de clase…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>Atajos de &amp;teclado…</translation>
    </message>
    <message>
        <source>&amp;About Lockstep</source>
        <translation>&amp;Acerca de Lockstep</translation>
    </message>
    <message>
        <source>Lesson Links</source>
        <translation>Enlaces de la lección</translation>
    </message>
    <message>
        <source>The lesson page&apos;s links</source>
        <translation>Los enlaces de la página de la lección</translation>
    </message>
    <message>
        <source>Playback</source>
        <translation>Reproducción</translation>
    </message>
    <message>
        <source>speed 1×</source>
        <translation>velocidad 1×</translation>
    </message>
    <message>
        <source>Playhead</source>
        <translation>Cabezal de reproducción</translation>
    </message>
    <message>
        <source>Drag, or use the arrow keys, to move through the run</source>
        <translation>Arrastra, o usa las flechas, para moverte por la ejecución</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>no se puede escribir %1</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>Abrir escenario</translation>
    </message>
    <message>
        <source>Scenarios (*.json)</source>
        <translation>Escenarios (*.json)</translation>
    </message>
    <message>
        <source>Open Recorded Run</source>
        <translation>Abrir ejecución grabada</translation>
    </message>
    <message>
        <source>Traces of runs over processes (*.json)</source>
        <translation>Trazas de ejecuciones en varios procesos (*.json)</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>Guardar escenario</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>No se puede guardar</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>No se puede escribir %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Guardado %1</translation>
    </message>
    <message>
        <source>Export View</source>
        <translation>Exportar vista</translation>
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
        <translation>No se puede exportar</translation>
    </message>
    <message>
        <source>Export Metrics</source>
        <translation>Exportar métricas</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export Trace</source>
        <translation>Exportar traza</translation>
    </message>
    <message>
        <source>Chrome trace (*.json)</source>
        <translation>Traza de Chrome (*.json)</translation>
    </message>
    <message>
        <source>The question&apos;s run cannot be replayed: %1</source>
        <translation>La ejecución de la pregunta no se puede repetir: %1</translation>
    </message>
    <message>
        <source>Class Quiz</source>
        <translation>Cuestionario de clase</translation>
    </message>
    <message>
        <source>The class quiz could not start: %1</source>
        <translation>No se pudo iniciar el cuestionario de clase: %1</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>&amp;Idioma</translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation>Alto c&amp;ontraste</translation>
    </message>
    <message>
        <source>High contrast: on</source>
        <translation>Alto contraste: activado</translation>
    </message>
    <message>
        <source>High contrast: off</source>
        <translation>Alto contraste: desactivado</translation>
    </message>
    <message>
        <source>Audio &amp;Description</source>
        <translation>&amp;Audiodescripción</translation>
    </message>
    <message>
        <source>Audio description of the run</source>
        <translation>Audiodescripción de la ejecución</translation>
    </message>
    <message>
        <source>Audio description on: each step is told as the playhead passes it.</source>
        <translation>Audiodescripción activada: cada paso se anuncia cuando el cabezal de reproducción llega a él.</translation>
    </message>
    <message>
        <source>The run starts again from step 0.</source>
        <translation>La ejecución empieza de nuevo en el paso 0.</translation>
    </message>
    <message>
        <source>the page&apos;s settings</source>
        <translation>los ajustes de la página</translation>
    </message>
    <message>
        <source>From step 0 again, with a checkpoint after every %1 steps.</source>
        <translation>Otra vez desde el paso 0, con un punto de control cada %1 pasos.</translation>
    </message>
    <message>
        <source>From step 0 again: worker %1 will crash (%2) at step %3. Watch the others wait for its heartbeat, then recover.</source>
        <translation>Otra vez desde el paso 0: el trabajador %1 fallará (%2) en el paso %3. Mira cómo los demás esperan su latido y luego se recuperan.</translation>
    </message>
    <message>
        <source>Text size %1 %</source>
        <translation>Tamaño del texto %1 %</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Deshacer</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Rehacer</translation>
    </message>
    <message>
        <source>Te&amp;xt Size</source>
        <translation>Tamaño del te&amp;xto</translation>
    </message>
    <message>
        <source>&amp;Larger</source>
        <translation>&amp;Más grande</translation>
    </message>
    <message>
        <source>&amp;Smaller</source>
        <translation>Más &amp;pequeño</translation>
    </message>
    <message>
        <source>&amp;Normal</source>
        <translation>&amp;Normal</translation>
    </message>
    <message>
        <source>t = %1 s of %2 s · step %3</source>
        <translation>t = %1 s de %2 s · paso %3</translation>
    </message>
    <message>
        <source>Playing from step %1.</source>
        <translation>Reproduciendo desde el paso %1.</translation>
    </message>
    <message>
        <source>Paused at step %1.</source>
        <translation>En pausa en el paso %1.</translation>
    </message>
    <message>
        <source>At the next event: step %1, t = %2 s.</source>
        <translation>En el siguiente evento: paso %1, t = %2 s.</translation>
    </message>
    <message>
        <source>Back at the start of the run.</source>
        <translation>De vuelta al inicio de la ejecución.</translation>
    </message>
    <message>
        <source>In front: %1.</source>
        <translation>Delante: %1.</translation>
    </message>
    <message>
        <source>the timeline</source>
        <translation>la línea de tiempo</translation>
    </message>
    <message>
        <source>The Memory view has no unsharded outline: %1</source>
        <translation>La vista de memoria no tiene el contorno sin fragmentar: %1</translation>
    </message>
    <message>
        <source>Resume a Class Quiz</source>
        <translation>Continuar un cuestionario de clase</translation>
    </message>
    <message>
        <source>Class quiz journals (*.journal)</source>
        <translation>Diarios de cuestionarios de clase (*.journal)</translation>
    </message>
    <message>
        <source>&amp;Resume a Class Quiz…</source>
        <translation>&amp;Continuar un cuestionario de clase…</translation>
    </message>
    <message>
        <source>%1 are compared on data parallelism; this run is a pipeline or tensor-parallel run.</source>
        <translation>%1 se comparan con paralelismo de datos; esta ejecución es un pipeline o una ejecución con paralelismo de tensores.</translation>
    </message>
    <message>
        <source>Ways of agreeing</source>
        <translation>Las formas de ponerse de acuerdo</translation>
    </message>
    <message>
        <source>Number formats</source>
        <translation>Los formatos numéricos</translation>
    </message>
    <message>
        <source>%1: training the scenario once for each…</source>
        <translation>%1: entrenando el escenario una vez para cada uno…</translation>
    </message>
    <message>
        <source>Compare Number For&amp;mats</source>
        <translation>Comparar &amp;formatos numéricos</translation>
    </message>
    <message>
        <source>%1 %2 s, final loss %3, %4 bytes a step</source>
        <translation>%1 %2 s, pérdida final %3, %4 bytes por paso</translation>
    </message>
    <message>
        <source> · %1 skipped</source>
        <translation> · %1 saltados</translation>
    </message>
    <message>
        <source>, 1 step skipped</source>
        <translation>, 1 paso saltado</translation>
    </message>
    <message>
        <source>, %1 steps skipped</source>
        <translation>, %1 pasos saltados</translation>
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
        <translation>No hay restauraciones que comparar: %1. Haz que falle un trabajador (haz clic en él en la vista Clúster) en una ejecución que guarde puntos de control para ver las dos.</translation>
    </message>
    <message>
        <source>compare restores: cannot create a scratch directory in %1</source>
        <translation>comparar restauraciones: no se puede crear un directorio temporal en %1</translation>
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
        <translation>SGD local, cada %1 pasos</translation>
    </message>
    <message>
        <source>async, lr / τ</source>
        <translation>async, lr / τ</translation>
    </message>
    <message>
        <source>%1 model</source>
        <translation>modelo %1</translation>
    </message>
    <message>
        <source>%1 on the wire</source>
        <translation>%1 en el cable</translation>
    </message>
</context>
<context>
    <name>lockstep::app::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>&lt;p&gt;Space, the arrows, R, [ and ] drive the playback wherever the focus is, unless the focused control uses the key itself: then Space presses the button or toggles the box, and arrows move in the list or field. Click a view, or press F6, to give the keys back to the playback.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Espacio, las flechas, R, [ y ] controlan la reproducción dondequiera que esté el foco, salvo que el control con el foco use esa tecla: entonces Espacio pulsa el botón o marca la casilla, y las flechas se mueven por la lista o el campo. Haz clic en una vista, o pulsa F6, para devolver las teclas a la reproducción.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>%1 menu</source>
        <translation>Menú %1</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Ventana</translation>
    </message>
    <message>
        <source>Cluster view</source>
        <translation>Vista Clúster</translation>
    </message>
    <message>
        <source>Timeline view</source>
        <translation>Vista Línea de tiempo</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>En cualquier sitio</translation>
    </message>
    <message>
        <source>Choose a worker</source>
        <translation>Elegir un trabajador</translation>
    </message>
    <message>
        <source>Open the chosen worker&apos;s faults (the menu a click opens)</source>
        <translation>Abrir los fallos del trabajador elegido (el menú que abre un clic)</translation>
    </message>
    <message>
        <source>Pan along the run</source>
        <translation>Desplazarse por la ejecución</translation>
    </message>
    <message>
        <source>Zoom in, zoom out</source>
        <translation>Acercar, alejar</translation>
    </message>
    <message>
        <source>Show the whole run</source>
        <translation>Mostrar toda la ejecución</translation>
    </message>
    <message>
        <source>Move to the next or previous control, link or view</source>
        <translation>Pasar al control, enlace o vista siguiente o anterior</translation>
    </message>
    <message>
        <source>Press the focused button, toggle the focused check box, follow the focused link</source>
        <translation>Pulsar el botón con el foco, marcar la casilla con el foco, seguir el enlace con el foco</translation>
    </message>
    <message>
        <source>Alt+underlined letter</source>
        <translation>Alt+letra subrayada</translation>
    </message>
    <message>
        <source>Go to that menu, control or button</source>
        <translation>Ir a ese menú, control o botón</translation>
    </message>
    <message>
        <source>Next or previous tab of the views, with the focus in them</source>
        <translation>Pestaña siguiente o anterior de las vistas, con el foco en ellas</translation>
    </message>
</context>
<context>
    <name>lockstep::app::StudyPanel</name>
    <message>
        <source>Run the study</source>
        <translation>Ejecutar el estudio</translation>
    </message>
    <message>
        <source>Trains every model of the study on the same data.</source>
        <translation>Entrena todos los modelos del estudio con los mismos datos.</translation>
    </message>
    <message>
        <source>Loss against modelled energy</source>
        <translation>Pérdida frente a energía modelada</translation>
    </message>
    <message>
        <source>Loss against compute</source>
        <translation>Pérdida frente a cálculo</translation>
    </message>
    <message>
        <source>Horizontal axis</source>
        <translation>Eje horizontal</translation>
    </message>
    <message>
        <source>model</source>
        <translation>modelo</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>parámetros</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>exactitud</translation>
    </message>
    <message>
        <source>compute (s)</source>
        <translation>cálculo (s)</translation>
    </message>
    <message>
        <source>energy (kJ)</source>
        <translation>energía (kJ)</translation>
    </message>
    <message>
        <source>Training %1 models…</source>
        <translation>Entrenando %1 modelos…</translation>
    </message>
    <message>
        <source>The study stopped: %1</source>
        <translation>El estudio se detuvo: %1</translation>
    </message>
    <message>
        <source>modelled energy (kJ)</source>
        <translation>energía modelada (kJ)</translation>
    </message>
    <message>
        <source>compute, all workers (s)</source>
        <translation>cálculo, todos los trabajadores (s)</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>held-out loss</source>
        <translation>pérdida con datos nuevos</translation>
    </message>
    <message>
        <source>Energy is modelled per worker: computing %1 W, communicating %2 W, waiting %3 W, writing checkpoints %4 W, idle %5 W.</source>
        <translation>La energía se modela por trabajador: calculando %1 W, comunicando %2 W, esperando %3 W, escribiendo puntos de control %4 W, inactivo %5 W.</translation>
    </message>
    <message>
        <source>Every model trained on the same data with the same workers. Training loss and accuracy: the last step&apos;s batch, first seed. Held-out loss: on fresh examples no model trained on, mean ± sd over the seeds (%1).</source>
        <translation>Cada modelo se entrenó con los mismos datos y los mismos trabajadores. Pérdida de entrenamiento y exactitud: el lote del último paso, primera semilla. Pérdida con datos nuevos: con ejemplos nuevos con los que no entrenó ningún modelo, media ± desviación típica sobre las semillas (%1).</translation>
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
        <translation>Tiempo con un trabajador</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Trabajadores</translation>
    </message>
    <message>
        <source>Communication in all</source>
        <translation>Comunicación en total</translation>
    </message>
    <message>
        <source>Communication time</source>
        <translation>Tiempo de comunicación</translation>
    </message>
    <message>
        <source>Calculator result</source>
        <translation>Resultado de la calculadora</translation>
    </message>
    <message>
        <source>ideal</source>
        <translation>ideal</translation>
    </message>
    <message>
        <source>with communication</source>
        <translation>con comunicación</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>trabajadores</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>aceleración</translation>
    </message>
    <message>
        <source>Show it in the lab</source>
        <translation>Mostrarlo en el laboratorio</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 s&lt;/b&gt; on %2 workers (%3 s of compute each + %4 s of communication): a speedup of &lt;b&gt;%5&lt;/b&gt; against %6 s on one worker, ideal %2; efficiency %7%.</source>
        <translation>&lt;b&gt;%1 s&lt;/b&gt; con %2 trabajadores (%3 s de cálculo cada uno + %4 s de comunicación): una aceleración de &lt;b&gt;%5&lt;/b&gt; frente a %6 s con un trabajador, ideal %2; eficiencia del %7%.</translation>
    </message>
</context>
<context>
    <name>lockstep::views::CheckpointView</name>
    <message>
        <source>Checkpoints view</source>
        <translation>Vista Puntos de control</translation>
    </message>
    <message>
        <source>Each checkpoint: every worker writes its file, syncs it, renames it; then the MANIFEST commits it.</source>
        <translation>Cada punto de control: cada trabajador escribe su archivo, lo sincroniza y lo renombra; después, el MANIFEST lo confirma.</translation>
    </message>
    <message>
        <source>Worker %1 crashed. Nobody has noticed yet.</source>
        <translation>El trabajador %1 ha fallado. Nadie se ha dado cuenta todavía.</translation>
    </message>
    <message>
        <source>Worker %1 declared dead by the heartbeat; a replacement is starting.</source>
        <translation>El latido da por muerto al trabajador %1; se está iniciando un sustituto.</translation>
    </message>
    <message>
        <source>Recovery scans newest first: verifying %1…</source>
        <translation>La recuperación busca del más reciente al más antiguo: verificando %1…</translation>
    </message>
    <message>
        <source>Scan done.</source>
        <translation>Búsqueda terminada.</translation>
    </message>
    <message>
        <source>Loading %1: %2 of %3 read</source>
        <translation>Cargando %1: leídos %2 de %3</translation>
    </message>
    <message>
        <source>Resumed from %1 after worker %2&apos;s crash.</source>
        <translation>Reanudada desde %1 tras el fallo del trabajador %2.</translation>
    </message>
    <message>
        <source>Resumed after worker %1&apos;s crash.</source>
        <translation>Reanudada tras el fallo del trabajador %1.</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>Todavía no hay ninguna ejecución.</translation>
    </message>
    <message>
        <source>worker %1 %2</source>
        <translation>trabajador %1 %2</translation>
    </message>
    <message>
        <source>%1 %2 (%3; manifest %4)</source>
        <translation>%1 %2 (%3; manifiesto %4)</translation>
    </message>
    <message>
        <source>no checkpoint yet</source>
        <translation>todavía no hay ningún punto de control</translation>
    </message>
    <message>
        <source> Full restore: %1 Weights only: %2</source>
        <translation> Restauración completa: %1 Solo los pesos: %2</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>trabajador %1</translation>
    </message>
    <message>
        <source>MANIFEST of %1: %2</source>
        <translation>MANIFEST de %1: %2</translation>
    </message>
    <message>
        <source>being written under a temporary name (%1 so far)</source>
        <translation>escribiéndose con un nombre temporal (%1 hasta ahora)</translation>
    </message>
    <message>
        <source>its bytes fsynced, still under the temporary name</source>
        <translation>sus bytes sincronizados con fsync, todavía con el nombre temporal</translation>
    </message>
    <message>
        <source>renamed into place and the directory fsynced; waiting for the MANIFEST</source>
        <translation>renombrado a su sitio y el directorio sincronizado con fsync; esperando al MANIFEST</translation>
    </message>
    <message>
        <source>named by the committed MANIFEST (%1)</source>
        <translation>nombrado por el MANIFEST confirmado (%1)</translation>
    </message>
    <message>
        <source>its writer crashed (%1 written)</source>
        <translation>su escritor falló (%1 escritos)</translation>
    </message>
    <message>
        <source>truncated on disk after the commit</source>
        <translation>truncado en el disco después de la confirmación</translation>
    </message>
    <message>
        <source>a bit flipped on disk after the commit</source>
        <translation>un bit cambiado en el disco después de la confirmación</translation>
    </message>
    <message>
        <source>never written: the crash came before its turn</source>
        <translation>nunca escrito: el fallo llegó antes de su turno</translation>
    </message>
    <message>
        <source>%1 of %2: %3: %4</source>
        <translation>%1 de %2: %3: %4</translation>
    </message>
    <message>
        <source>Checkpoints on disk</source>
        <translation>Puntos de control en el disco</translation>
    </message>
    <message numerus="yes">
        <source>%n older pruned by the keep policy or not shown</source>
        <translation>
            <numerusform>%n más antiguo, eliminado por la política de conservación o no mostrado</numerusform>
            <numerusform>%n más antiguos, eliminados por la política de conservación o no mostrados</numerusform>
        </translation>
    </message>
    <message>
        <source>newest %1 shown</source>
        <translation>se muestran los %1 más recientes</translation>
    </message>
    <message>
        <source>verifying…</source>
        <translation>verificando…</translation>
    </message>
    <message>
        <source>✓ loaded</source>
        <translation>✓ cargado</translation>
    </message>
    <message>
        <source>✗ skipped</source>
        <translation>✗ omitido</translation>
    </message>
    <message>
        <source>No checkpoint written yet.
Scenarios with &quot;checkpoint&quot; save one every few steps.</source>
        <translation>Todavía no se ha escrito ningún punto de control.
Los escenarios con &quot;checkpoint&quot; guardan uno cada pocos pasos.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>reading %1 back</source>
        <translation>volviendo a leer %1</translation>
    </message>
    <message>
        <source>%1% · %2 of %3</source>
        <translation>%1% · %2 de %3</translation>
    </message>
    <message>
        <source>Full restore</source>
        <translation>Restauración completa</translation>
    </message>
    <message>
        <source>Parameters, optimizer momentum and each worker&apos;s place in its data come back: the run goes on as if it had never stopped.</source>
        <translation>Vuelven los parámetros, el momento del optimizador y la posición de cada trabajador en sus datos: la ejecución sigue como si nunca se hubiera detenido.</translation>
    </message>
    <message>
        <source>Parameters, optimizer momentum and data positions come back.</source>
        <translation>Vuelven los parámetros, el momento del optimizador y las posiciones en los datos.</translation>
    </message>
    <message>
        <source>Weights only</source>
        <translation>Solo los pesos</translation>
    </message>
    <message>
        <source>Only the parameters come back; momentum restarts at zero and the data from its start, so the continuation differs.</source>
        <translation>Solo vuelven los parámetros; el momento empieza de nuevo en cero y los datos desde su inicio, así que la continuación es distinta.</translation>
    </message>
    <message>
        <source>Only the parameters: momentum starts at zero, the data from its start.</source>
        <translation>Solo los parámetros: el momento empieza en cero, y los datos, desde su inicio.</translation>
    </message>
    <message>
        <source>%1 (this run)</source>
        <translation>%1 (esta ejecución)</translation>
    </message>
</context>
<context>
    <name>lockstep::views::ClusterView</name>
    <message>
        <source>Faults for worker %1</source>
        <translation>Fallos para el trabajador %1</translation>
    </message>
    <message>
        <source>Worker %1</source>
        <translation>Trabajador %1</translation>
    </message>
    <message>
        <source>Worker %1: %2
first gradient entry %3
click for faults</source>
        <translation>Trabajador %1: %2
primera entrada del gradiente %3
haz clic para ver los fallos</translation>
    </message>
    <message>
        <source>Cluster view</source>
        <translation>Vista Clúster</translation>
    </message>
    <message>
        <source>No run loaded</source>
        <translation>No hay ninguna ejecución cargada</translation>
    </message>
    <message>
        <source>worker %1 %2</source>
        <translation>trabajador %1 %2</translation>
    </message>
    <message>
        <source>workers %1 %2</source>
        <translation>trabajadores %1 %2</translation>
    </message>
    <message>
        <source>%1 workers %2</source>
        <translation>%1 trabajadores %2</translation>
    </message>
    <message>
        <source>no step finished yet</source>
        <translation>todavía no ha terminado ningún paso</translation>
    </message>
    <message>
        <source>replicas aligned</source>
        <translation>réplicas alineadas</translation>
    </message>
    <message>
        <source>replicas differ; distance from their mean: %1</source>
        <translation>las réplicas difieren; distancia a su media: %1</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>las réplicas difieren</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>%1 on the wire</source>
        <translation>%1 en el cable</translation>
    </message>
</context>
<context>
    <name>lockstep::views::ComparisonView</name>
    <message>
        <source>Comparison view</source>
        <translation>Vista Comparar</translation>
    </message>
    <message>
        <source>Runs compared</source>
        <translation>Ejecuciones comparadas</translation>
    </message>
    <message>
        <source>Useful work</source>
        <translation>Trabajo útil</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>muestras/s</translation>
    </message>
    <message>
        <source>Synchronisation</source>
        <translation>Sincronización</translation>
    </message>
    <message>
        <source>s per worker</source>
        <translation>s por trabajador</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Espera</translation>
    </message>
    <message>
        <source>Lost work</source>
        <translation>Trabajo perdido</translation>
    </message>
    <message>
        <source>worker-s</source>
        <translation>s-trabajador</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>Energía</translation>
    </message>
    <message>
        <source>J</source>
        <translation>J</translation>
    </message>
    <message>
        <source>worker-ms</source>
        <translation>ms-trabajador</translation>
    </message>
    <message>
        <source>ms per worker</source>
        <translation>ms por trabajador</translation>
    </message>
    <message>
        <source>thousand samples/s</source>
        <translation>miles de muestras/s</translation>
    </message>
    <message>
        <source>None yet: every run that finishes in this session appears here, the last %1 side by side.</source>
        <translation>Todavía ninguna: cada ejecución que termina en esta sesión aparece aquí; las últimas %1, una al lado de otra.</translation>
    </message>
    <message>
        <source>Lower is better except useful work. Energy uses assumed power per state, not a meter.</source>
        <translation>Menos es mejor, salvo en el trabajo útil. La energía usa una potencia supuesta por estado, no un medidor.</translation>
    </message>
</context>
<context>
    <name>lockstep::views::MemoryView</name>
    <message>
        <source>Memory per worker · step %1</source>
        <translation>Memoria por trabajador · paso %1</translation>
    </message>
    <message>
        <source>Memory per worker</source>
        <translation>Memoria por trabajador</translation>
    </message>
    <message>
        <source>the same worker without sharding, at its peak: %1</source>
        <translation>el mismo trabajador sin fragmentar, en su pico: %1</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>trabajador %1</translation>
    </message>
    <message>
        <source>Memory view</source>
        <translation>Vista de memoria</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>parámetros</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradientes</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>estado del optimizador</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>activaciones</translation>
    </message>
    <message>
        <source>workspace</source>
        <translation>espacio de trabajo</translation>
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
        <translation>No hay ninguna ejecución cargada.</translation>
    </message>
    <message>
        <source>This run is a pipeline: each worker holds its own stages of the model, not a replica. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Esta ejecución es un pipeline: cada trabajador guarda sus propias etapas del modelo, no una réplica. El balance de memoria cuenta los trabajadores de las ejecuciones con paralelismo de datos.</translation>
    </message>
    <message>
        <source>This run is tensor-parallel: each worker holds its own slice of every layer, not a replica. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Esta ejecución tiene paralelismo de tensores: cada trabajador guarda su propia porción de cada capa, no una réplica. El balance de memoria cuenta los trabajadores de las ejecuciones con paralelismo de datos.</translation>
    </message>
    <message>
        <source>This run is a hybrid of pipelines: each worker holds its own stages. The memory ledger counts the workers of data-parallel runs.</source>
        <translation>Esta ejecución es un híbrido de pipelines: cada trabajador guarda sus propias etapas. El balance de memoria cuenta los trabajadores de las ejecuciones con paralelismo de datos.</translation>
    </message>
    <message>
        <source>This run holds no memory samples (a recording made without them).</source>
        <translation>Esta ejecución no contiene mediciones de memoria (una grabación hecha sin ellas).</translation>
    </message>
    <message>
        <source>Each worker&apos;s memory appears here as the first step runs.</source>
        <translation>La memoria de cada trabajador aparece aquí en cuanto corre el primer paso.</translation>
    </message>
    <message>
        <source>%1 · 1 worker</source>
        <translation>%1 · 1 trabajador</translation>
    </message>
    <message>
        <source>%1 · %2 workers</source>
        <translation>%1 · %2 trabajadores</translation>
    </message>
    <message>
        <source>each worker receives the others&apos; pieces of the layer, computes with it whole, then frees it.</source>
        <translation>cada trabajador recibe los trozos de la capa que tienen los demás, calcula con la capa entera y luego la libera.</translation>
    </message>
    <message>
        <source>each worker sends its updated shard of the parameters to the others.</source>
        <translation>cada trabajador envía a los demás su fragmento actualizado de los parámetros.</translation>
    </message>
    <message>
        <source>the workers add up the layer&apos;s gradient piece by piece, and each keeps only its own piece of the sum.</source>
        <translation>los trabajadores suman el gradiente de la capa trozo a trozo, y cada uno se queda solo con su propio trozo de la suma.</translation>
    </message>
    <message>
        <source>the workers add up the gradient piece by piece, and each ends with the sum of its own shard.</source>
        <translation>los trabajadores suman el gradiente trozo a trozo, y cada uno termina con la suma de su propio fragmento.</translation>
    </message>
    <message>
        <source>Now: %1: %2</source>
        <translation>Ahora: %1: %2</translation>
    </message>
    <message>
        <source>Every worker holds the whole model, its whole gradient and the whole optimizer state: a full replica.</source>
        <translation>Cada trabajador guarda el modelo entero, su gradiente entero y todo el estado del optimizador: una réplica completa.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of the optimizer state; the parameters and the gradient are whole.</source>
        <translation>Cada trabajador guarda 1/%1 del estado del optimizador; los parámetros y el gradiente están enteros.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of the optimizer state, and between steps 1/%1 of the gradient; the parameters are whole.</source>
        <translation>Cada trabajador guarda 1/%1 del estado del optimizador y, entre pasos, 1/%1 del gradiente; los parámetros están enteros.</translation>
    </message>
    <message>
        <source>Each worker keeps 1/%1 of every layer and gathers a layer whole only while it computes with it.</source>
        <translation>Cada trabajador guarda 1/%1 de cada capa y solo reúne una capa entera mientras calcula con ella.</translation>
    </message>
    <message>
        <source>Most held now: %1.</source>
        <translation>Lo máximo ahora: %1.</translation>
    </message>
    <message>
        <source>Most held now: %1; without sharding, %2 at the peak.</source>
        <translation>Lo máximo ahora: %1; sin fragmentar, %2 en el pico.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>worker %1: %2, in all %3</source>
        <translation>trabajador %1: %2, en total %3</translation>
    </message>
</context>
<context>
    <name>lockstep::views::PipelineView</name>
    <message>
        <source>Pipeline view</source>
        <translation>Vista Pipeline</translation>
    </message>
    <message>
        <source>Run this model as a pipeline</source>
        <translation>Ejecutar este modelo como pipeline</translation>
    </message>
    <message>
        <source>Cuts the same model into four stages and the batch into eight micro-batches, and runs it again</source>
        <translation>Corta el mismo modelo en cuatro etapas y el lote en ocho microlotes, y lo vuelve a ejecutar</translation>
    </message>
    <message>
        <source>This run is data-parallel, not a pipeline. Every worker holds the whole model and trains on its own share of the batch, so nothing flows from stage to stage and no stage waits in a bubble.</source>
        <translation>Esta ejecución usa paralelismo de datos, no un pipeline. Cada trabajador tiene el modelo completo y entrena con su propia parte del lote, así que nada fluye de etapa en etapa y ninguna etapa espera en una burbuja.</translation>
    </message>
    <message>
        <source>This run is tensor-parallel, not a pipeline. Every layer is cut across the workers, who all work on every micro-step together, so there are no stages to wait for each other.</source>
        <translation>Esta ejecución usa paralelismo de tensor, no un pipeline. Cada capa está repartida entre los trabajadores, que trabajan todos juntos en cada micropaso, así que no hay etapas que se esperen unas a otras.</translation>
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
        <translation>r%1 etapa %2</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>etapa %1</translation>
    </message>
    <message>
        <source>Bubble: none reported, this step ran no pipeline</source>
        <translation>Burbuja: no se ha informado de ninguna; este paso no usó pipeline</translation>
    </message>
    <message>
        <source>Bubble: not reported for this step yet</source>
        <translation>Burbuja: todavía no se ha informado para este paso</translation>
    </message>
    <message>
        <source>Bubble: %1% of stage-time idle in this step</source>
        <translation>Burbuja: %1% del tiempo de etapa inactivo en este paso</translation>
    </message>
    <message>
        <source>No pipeline step to show yet.</source>
        <translation>Todavía no hay ningún paso de pipeline que mostrar.</translation>
    </message>
    <message>
        <source>%1: %2, %3 bubbles, peak %4 in flight</source>
        <translation>%1: %2, %3 burbujas, pico de %4 en vuelo</translation>
    </message>
    <message>
        <source>Step %1; bubble %2% of stage-time. %3. %4</source>
        <translation>Paso %1; burbuja del %2% del tiempo de etapa. %3. %4</translation>
    </message>
    <message>
        <source>peak 88 in flight</source>
        <translation>pico de 88 en vuelo</translation>
    </message>
    <message>
        <source>Pipeline: no step yet. Run a scenario with pipeline parallelism.</source>
        <translation>Pipeline: todavía no hay ningún paso. Ejecuta un escenario con paralelismo de pipeline.</translation>
    </message>
    <message>
        <source>Pipeline: none in this run</source>
        <translation>Pipeline: ninguno en esta ejecución</translation>
    </message>
    <message>
        <source>forward pass</source>
        <translation>pasada hacia delante</translation>
    </message>
    <message>
        <source>backward pass</source>
        <translation>pasada hacia atrás</translation>
    </message>
    <message>
        <source>bubble (idle)</source>
        <translation>burbuja (inactiva)</translation>
    </message>
    <message>
        <source>update</source>
        <translation>actualización</translation>
    </message>
    <message>
        <source>peak %1 in flight</source>
        <translation>pico de %1 en vuelo</translation>
    </message>
    <message>
        <source>↓ %1 activations    ↑ %2 activation gradients</source>
        <translation>↓ %1 activaciones    ↑ %2 gradientes de activaciones</translation>
    </message>
    <message>
        <source>step start</source>
        <translation>inicio del paso</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>time →</source>
        <translation>tiempo →</translation>
    </message>
    <message>
        <source>Bubble: %1% of stage-time idle in this step  ·  equal stages, free messages: (P−1)/(M+P−1) = %2/%3 = %4%</source>
        <translation>Burbuja: %1% del tiempo de etapa inactivo en este paso  ·  etapas iguales, mensajes gratuitos: (P−1)/(M+P−1) = %2/%3 = %4%</translation>
    </message>
    <message>
        <source>Pipeline, step %1: %2 stage, %3 per step</source>
        <translation>Pipeline, paso %1: %2 etapa, %3 por paso</translation>
    </message>
    <message>
        <source>Pipeline, step %1: %2 stages, %3 per step</source>
        <translation>Pipeline, paso %1: %2 etapas, %3 por paso</translation>
    </message>
</context>
<context>
    <name>lockstep::views::SpeedupView</name>
    <message>
        <source>Speedup view</source>
        <translation>Vista Aceleración</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>trabajadores</translation>
    </message>
    <message>
        <source>speedup (×)</source>
        <translation>aceleración (×)</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>eficiencia</translation>
    </message>
    <message>
        <source>ideal: speedup = workers</source>
        <translation>ideal: aceleración = trabajadores</translation>
    </message>
    <message>
        <source>efficiency (right axis)</source>
        <translation>eficiencia (eje derecho)</translation>
    </message>
    <message>
        <source>measured on this computer</source>
        <translation>medida en este ordenador</translation>
    </message>
    <message>
        <source>modelled speedup</source>
        <translation>aceleración modelada</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>calculando…</translation>
    </message>
    <message>
        <source>Amdahl fit, serial fraction %1%</source>
        <translation>Ajuste de Amdahl, fracción serie %1%</translation>
    </message>
    <message>
        <source>Cannot compute the speedup: %1</source>
        <translation>No se puede calcular la aceleración: %1</translation>
    </message>
    <message>
        <source>No speedup computed yet</source>
        <translation>Todavía no se ha calculado ninguna aceleración</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 trabajador</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 trabajadores</translation>
    </message>
    <message>
        <source>%1: speedup %2× of an ideal %3×, efficiency %4%</source>
        <translation>%1: aceleración de %2× frente a un ideal de %3×, eficiencia del %4%</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>calculando</translation>
    </message>
    <message>
        <source>without overlap: buckets wait for backward</source>
        <translation>sin solapamiento: los cubos esperan a la pasada hacia atrás</translation>
    </message>
    <message>
        <source>without overlap %1×</source>
        <translation>sin solapamiento %1×</translation>
    </message>
</context>
<context>
    <name>lockstep::views::TimelineView</name>
    <message>
        <source>No run yet</source>
        <translation>Todavía no hay ninguna ejecución</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>trabajador %1</translation>
    </message>
    <message>
        <source>step %1 again</source>
        <translation>paso %1 otra vez</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>Timeline view</source>
        <translation>Vista Línea de tiempo</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 bytes</translation>
    </message>
    <message>
        <source>peer: worker %1</source>
        <translation>par: trabajador %1</translation>
    </message>
    <message numerus="yes">
        <source>gradient computed on version %1 of the model, τ = %2 (%n update(s) behind)</source>
        <translation>
            <numerusform>gradiente calculado con la versión %1 del modelo, τ = %2 (%n actualización de retraso)</numerusform>
            <numerusform>gradiente calculado con la versión %1 del modelo, τ = %2 (%n actualizaciones de retraso)</numerusform>
        </translation>
    </message>
    <message>
        <source>version %1 of the model</source>
        <translation>versión %1 del modelo</translation>
    </message>
    <message>
        <source>1 worker</source>
        <translation>1 trabajador</translation>
    </message>
    <message>
        <source>%1 workers</source>
        <translation>%1 trabajadores</translation>
    </message>
    <message>
        <source>%1 · worker %2 · step %3 · round %4</source>
        <translation>%1 · trabajador %2 · paso %3 · ronda %4</translation>
    </message>
    <message>
        <source>%1 · worker %2 · step %3</source>
        <translation>%1 · trabajador %2 · paso %3</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 bytes (%2)</translation>
    </message>
    <message>
        <source>%1 to worker %2</source>
        <translation>%1 al trabajador %2</translation>
    </message>
    <message>
        <source>%1 from worker %2</source>
        <translation>%1 del trabajador %2</translation>
    </message>
    <message>
        <source>%1, %2 shown, %3 steps done</source>
        <translation>%1, %2 visibles, %3 pasos hechos</translation>
    </message>
    <message>
        <source>bucket %1</source>
        <translation>cubo %1</translation>
    </message>
    <message>
        <source>b%1</source>
        <comment>a bucket&apos;s number where its name does not fit</comment>
        <translation>c%1</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>hacia delante</translation>
    </message>
    <message>
        <source>got bucket %1, expected %2: step stopped</source>
        <translation>llegó el cubo %1, se esperaba el %2: paso detenido</translation>
    </message>
    <message>
        <source>bucket %1: the gradients of layers %2 to %3</source>
        <translation>cubo %1: los gradientes de las capas %2 a %3</translation>
    </message>
    <message>
        <source>bucket %1: the gradient of layer %2</source>
        <translation>cubo %1: el gradiente de la capa %2</translation>
    </message>
    <message>
        <source>backward through layer %1: its gradient is ready at the end</source>
        <translation>hacia atrás por la capa %1: su gradiente está listo al final</translation>
    </message>
    <message>
        <source>all-gather L%1</source>
        <translation>all-gather L%1</translation>
    </message>
    <message>
        <source>reduce-scatter L%1</source>
        <translation>reduce-scatter L%1</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>all-gather</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>reduce-scatter</translation>
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
        <translation>La frontera de decisión aparece aquí cuando termina una ejecución.</translation>
    </message>
    <message>
        <source>The model cannot be drawn: %1</source>
        <translation>No se puede dibujar el modelo: %1</translation>
    </message>
    <message>
        <source>No data set to draw the decision boundary over.</source>
        <translation>No hay ningún conjunto de datos sobre el que dibujar la frontera de decisión.</translation>
    </message>
    <message>
        <source>This model predicts a number (regression), so there are no classes to colour in. The decision boundary is drawn for classification data.</source>
        <translation>Este modelo predice un número (regresión), así que no hay clases que colorear. La frontera de decisión se dibuja para datos de clasificación.</translation>
    </message>
    <message>
        <source>The data has %1 inputs per example. The decision boundary can only be drawn over two inputs, as a flat map.</source>
        <translation>Los datos tienen %1 entradas por ejemplo. La frontera de decisión solo se puede dibujar sobre dos entradas, como un mapa plano.</translation>
    </message>
    <message>
        <source>The data set is empty.</source>
        <translation>El conjunto de datos está vacío.</translation>
    </message>
    <message>
        <source>Training view</source>
        <translation>Vista Entrenamiento</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>pérdida</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>exactitud</translation>
    </message>
    <message>
        <source>accuracy (right axis)</source>
        <translation>exactitud (eje derecho)</translation>
    </message>
    <message>
        <source>Decision boundary at the end of the run</source>
        <translation>Frontera de decisión al final de la ejecución</translation>
    </message>
    <message>
        <source>Decision boundary</source>
        <translation>Frontera de decisión</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>trabajador %1</translation>
    </message>
    <message>
        <source>loss (mean over workers)</source>
        <translation>pérdida (media de los trabajadores)</translation>
    </message>
    <message>
        <source>No training steps yet</source>
        <translation>Todavía no hay pasos de entrenamiento</translation>
    </message>
    <message>
        <source>no training steps yet</source>
        <translation>todavía no hay pasos de entrenamiento</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Paso %1</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>pérdida %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>accuracy %1%</source>
        <translation>exactitud %1%</translation>
    </message>
    <message>
        <source>replicas identical again</source>
        <translation>réplicas idénticas de nuevo</translation>
    </message>
    <message>
        <source>replicas differ</source>
        <translation>las réplicas difieren</translation>
    </message>
    <message>
        <source>replicas identical</source>
        <translation>réplicas idénticas</translation>
    </message>
    <message>
        <source>%1 of %2 workers drawn</source>
        <translation>%1 de %2 trabajadores dibujados</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>clase %1</translation>
    </message>
    <message>
        <source>Shade: the class the model predicts, paler where it is less sure. Marks: the data by true class; %1% lie in their own class&apos;s shade.</source>
        <translation>Sombreado: la clase que predice el modelo, más claro donde está menos seguro. Marcas: los datos según su clase real; el %1% queda en el sombreado de su propia clase.</translation>
    </message>
    <message>
        <source>The model puts %1% of the %2 data points in their own class.</source>
        <translation>El modelo sitúa el %1% de los %2 puntos de datos en su propia clase.</translation>
    </message>
    <message>
        <source>work lost in a restart</source>
        <translation>trabajo perdido en un reinicio</translation>
    </message>
    <message>
        <source>training diverged in step %1: the loss became %2; the learning rate is probably too large</source>
        <translation>el entrenamiento divergió en el paso %1: la pérdida es %2; la tasa de aprendizaje es probablemente demasiado grande</translation>
    </message>
    <message>
        <source>not a number</source>
        <translation>NaN (ya no es un número)</translation>
    </message>
    <message>
        <source>infinite</source>
        <translation>infinita</translation>
    </message>
    <message>
        <source>loss scale %1</source>
        <translation>escala de la pérdida %1</translation>
    </message>
    <message>
        <source>step %1 skipped: its summed gradient overflowed, the loss scale is halved</source>
        <translation>paso %1 saltado: su gradiente sumado se desbordó, la escala de la pérdida se divide por dos</translation>
    </message>
    <message>
        <source>1 step skipped on an overflow</source>
        <translation>1 paso saltado por un desbordamiento</translation>
    </message>
    <message>
        <source>%1 steps skipped on an overflow</source>
        <translation>%1 pasos saltados por desbordamiento</translation>
    </message>
    <message>
        <source>skipped: overflow</source>
        <translation>saltado: desbordamiento</translation>
    </message>
</context>
</TS>
