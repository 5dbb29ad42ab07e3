# Español: las palabras que leen los jugadores.
#
# Cada mensaje lleva las mismas variables que en en.ftl (una prueba lo comprueba). Las jugadas y
# las casillas se escriben en notación algebraica (e2-e3, d4xe5) en todos los idiomas.
# $side es `black` o `white`.

## Duraciones y ritmos de juego

duration-under-minute = menos de un minuto
duration-minutes = {$minutes} min
duration-hours = {$hours} h {$minutes} min
duration-days = {$days} d {$hours} h
time-ten-minutes = 10 minutos por jugada
time-one-hour = 1 hora por jugada
time-one-day = 1 día por jugada
time-three-days = 3 días por jugada
time-seven-days = 7 días por jugada
slow-down = estás enviando comandos demasiado rápido: vuelve a intentarlo en {$seconds} s
place-direct = nuestros mensajes directos
place-channel = el canal {$id}

## Partidas: títulos, estado y resultados

game-title = Partida #{$id} · {$size} · {$rating} · {$time}
game-title-ai = Partida #{$id} · {$size} · contra la IA (nivel {$level}) · {$rating} · {$time}
game-rating = { $rating ->
    [rated] puntuable
    [unrated] sin puntuar
   *[casual] amistosa
  }
ai-played = La IA (nivel {$level}) ha jugado {$move}.
move-played = Se ha jugado {$move}.
reminder = te toca mover en la partida #{$id}: {$left}.
vacation-away = {$name} está de vacaciones hasta el {$until}
vacation-told = {$name} está de vacaciones hasta el {$until}: en la partida #{$id} su reloj espera a su vuelta; el tuyo corre como siempre.
dm-your-move = Te toca mover en la partida #{$id} contra {$opponent}: {$opponent} ha jugado {$move}. {$left}
dm-first-move = Te toca mover en la partida #{$id} contra {$opponent}: la partida ha empezado y mueves tú primero. {$left}
dm-reminder = Se te acaba el tiempo en la partida #{$id} contra {$opponent}: {$left}.
dm-go-to-game = Ir a la partida: {$link}
# The time left to move: a span in plain text, or when it runs out as Discord shows a moment.
time-left = quedan {$span}
time-left-sentence = Quedan {$span}.
time-runs-out = el tiempo se acaba {$at}
time-runs-out-sentence = El tiempo se acaba {$at}.
time-in = en {$span}
notify-on = Los avisos de turno por mensaje directo están activados: te escribiré cada vez que te toque mover y cuando se te acabe el tiempo. /{ -cmd-notify } { -opt-dm }:{$off} los desactiva.
notify-off = Los avisos de turno por mensaje directo están desactivados. /{ -cmd-notify } { -opt-dm }:{$on} los activa.
notify-refused = Tus avisos de turno se han desactivado: Discord no me deja enviarte mensajes directos. Permite los mensajes directos de los miembros de este servidor y vuelve a activarlos con /{ -cmd-notify } { -opt-dm }:True.
played-late = Tu jugada {$move} en la partida #{$id} está hecha; el tablero se ha publicado en el canal.
unrated-early = sin puntuar: terminó antes de que movieran ambos bandos
status-active = Jugada {$number} · juegan las { $side ->
    [black] negras
   *[white] blancas
  }: {$name} · {$left}
status-won = Ganan las { $side ->
    [black] negras
   *[white] blancas
  } ({$name}): {$reason}
status-aborted = Anulada: sin resultado
reason-resigned = {$loser} ha abandonado
reason-timed-out = a {$loser} se le acabó el tiempo
end-breakthrough = una pieza llegó a la última fila
end-all-captured = se capturaron todas las piezas rivales
end-no-moves = el otro bando no tenía ninguna jugada legal
end-resignation = abandono
end-timeout = se acabó el tiempo
end-aborted = anulada
games-none = {$name} no tiene ninguna partida en curso.
game-against = #{$id} contra {$opponent}

## Desafíos

challenge = Desafío #{$id}: {$whom} · {$size} · {$side} · {$time} · {$rating} · {$state}
challenge-whom = {$challenger} desafía a {$opponent}
challenge-open = {$challenger} busca rival
challenge-side = {$challenger} juega con { $side ->
    [black] negras
   *[white] blancas
  }
challenge-side-random = colores al azar
challenge-casual-by-limit = { $limit ->
    [one] amistosa (hoy ya se ha jugado la partida puntuable entre los dos)
   *[other] amistosa (hoy ya se han jugado las {$limit} partidas puntuables entre los dos)
  }
challenge-expires = caduca {$left}
challenge-state = { $state ->
    [pending] pendiente
    [accepted] aceptado
    [declined] rechazado
    [cancelled] cancelado
   *[expired] caducado
  }
challenge-expired = El desafío #{$id} de {$challenger} ha caducado.

## Puntuaciones y clasificación

rating-card = {$name} en {$size}: {$value} (desviación {$deviation}) · { $games ->
    [one] {$games} partida
   *[other] {$games} partidas
  }, { $wins ->
    [one] {$wins} victoria
   *[other] {$wins} victorias
  }, { $losses ->
    [one] {$losses} derrota
   *[other] {$losses} derrotas
  }
rating-provisional = ? = provisional: unas pocas partidas puntuables más la asientan
rating-recent = #{$id} { $won ->
    [yes] ganada
   *[no] perdida
  } contra {$opponent} ({$reason}) {$change}
rating-more = También tiene puntuación en {$sizes}: /{ -cmd-rating } { -opt-size }:{$example} muestra la de cada uno.
leaderboard-title = Clasificación {$size} · página {$page}/{$pages}
leaderboard-empty = Todavía no se ha jugado ninguna partida puntuable.
leaderboard-provisional = Provisionales (unas pocas partidas puntuables más les dan puesto):

## El archivo de una partida (las etiquetas no cambian: solo sus valores son palabras)

export-result-won = ganan las { $side ->
    [black] negras
   *[white] blancas
  } ({$reason})
export-aborted = anulada
export-in-progress = en curso
export-rated = { $rated ->
    [yes] sí
   *[no] no
  }

## Negativas del servicio de partidas

error-self-challenge = no puedes desafiarte a ti mismo
error-declined = {$name} ha rechazado tu desafío: podrás volver a intentarlo dentro de {$wait}
error-too-many-challenges-to = has desafiado a {$name} { $limit ->
    [one] una vez
   *[other] {$limit} veces
  } en la última hora, el máximo permitido: podrás volver a hacerlo dentro de {$wait}
error-bot-opponent = {$name} es un bot: los bots no pueden jugar aquí
error-duplicate-challenge = ya hay un desafío pendiente entre {$name} y tú
error-duplicate-open-challenge = ya tienes un desafío abierto en este canal
error-too-many-challenges = tienes { $count ->
    [one] {$count} desafío pendiente
   *[other] {$count} desafíos pendientes
  }, el máximo permitido: cancela alguno o espera una respuesta
error-too-many-games = ya tienes { $limit ->
    [one] {$limit} partida
   *[other] {$limit} partidas
  } en curso, el máximo permitido
error-opponent-too-many-games = {$name} ya tiene { $limit ->
    [one] {$limit} partida
   *[other] {$limit} partidas
  } en curso, el máximo permitido
error-not-in-server = los desafíos entre miembros se hacen en un canal de un servidor; por mensaje directo puedes jugar contra la IA (elígeme como rival) y consultar partidas y puntuaciones
error-level-without-ai = el nivel es para partidas contra la IA: elige al bot como rival, o no indiques nivel
error-rated-ai = las partidas contra la IA nunca son puntuables: no indiques { -opt-rated }, o ponlo en no
error-no-such-challenge = no existe el desafío #{$id}
error-no-challenge-for-you = aquí no hay ningún desafío pendiente para ti
error-no-challenge-from = {$name} no tiene ningún desafío pendiente para ti aquí
error-no-challenge-to-cancel = no tienes ningún desafío pendiente aquí
error-ambiguous-challenge = tienes varios desafíos pendientes aquí; di de quién: {$names}
error-challenge-closed = este desafío está {$state}
error-not-your-challenge = este desafío es para {$name}: solo esa persona puede responderlo
error-decline-own-open = este desafío es para otra persona: solo esa persona puede responderlo
error-not-your-cancel = solo {$name} puede cancelar este desafío
error-decline-open = los desafíos abiertos no se pueden rechazar: ignóralo o deja que caduque
error-no-such-game = aquí no existe la partida #{$id}
error-played-elsewhere = la partida #{$id} se juega en {$place}; { $action ->
    [move] haz allí tu jugada
    [resign] abandona allí
   *[abort] anúlala allí
  }
error-no-active-game = no tienes ninguna partida en curso en este canal
error-games-elsewhere = no tienes ninguna partida en curso en este canal; { $count ->
    [one] la tuya está en {$channels}
   *[other] tus {$count} partidas están en {$channels}
  }
error-ambiguous-game = tienes varias partidas en este canal; di cuál con { -opt-game }: {$games}
error-not-a-player = no juegas en la partida #{$id}
error-rematch-too-early = la partida #{$id} sigue en curso: la revancha se puede pedir cuando termine
error-rematch-taken = la revancha de la partida #{$id} ya se ha ofrecido
error-nothing-to-rematch = no tienes ninguna partida terminada en este canal para jugar la revancha
error-which-game = no tienes ninguna partida aquí: di de qué partida se trata con su número (game:12)
error-vacation-days = { $left ->
    [0] no te quedan días de vacaciones este año (un año son los últimos 365 días)
    [one] te queda 1 día de vacaciones este año; pide 1
   *[other] te quedan {$left} días de vacaciones este año; pide de 1 a {$left}
  }
error-already-on-vacation = estás de vacaciones hasta el {$until}; termínalas antes con { -opt-days }:0
error-not-on-vacation = no estás de vacaciones
error-server-settings-in-direct = los ajustes de un servidor se cambian en uno de sus canales, no por mensaje directo
error-not-your-turn = no es tu turno: le toca mover a {$name}
error-game-over = la partida #{$id} ha terminado
error-abort-too-late = una partida solo se puede anular antes de que ambos jugadores hayan movido: abandona en su lugar
error-out-of-time = se te acabó el tiempo para esta jugada; la partida termina en la próxima revisión del reloj
error-position-changed = la posición cambió mientras llegaba tu jugada: mira el tablero y vuelve a intentarlo
error-too-many-ai-games = ya tienes { $count ->
    [one] {$count} partida
   *[other] {$count} partidas
  } en curso contra la IA, el máximo permitido: termina o abandona alguna primero
error-ai-busy-for-you = la IA todavía está respondiendo a tu jugada en la partida #{$id}: espera su respuesta y vuelve a intentarlo
error-ai-queue-full = la IA está ocupada respondiendo a otros jugadores: vuelve a intentarlo en un momento
error-analysis-in-progress = la partida #{$id} todavía se está jugando: una partida entre miembros solo se puede analizar cuando ha terminado, para que el motor no ayude a nadie mientras se juega
error-analysis-busy-for-you = la IA todavía está analizando la partida #{$id} para ti: espera a que termine y vuelve a intentarlo
error-storage-full = el almacenamiento del bot está lleno, así que no se ha cambiado nada: avisa al administrador del servidor y vuelve a intentarlo más tarde
error-internal = algo ha fallado por nuestra parte; vuelve a intentarlo
error-unavailable = el bot no puede llegar a su base de datos ahora mismo, así que no se ha cambiado nada: vuelve a intentarlo en un momento
error-time-control = `{$text}` no es un ritmo de juego: elige 10m, 1h, 1d, 3d o 7d
error-answers-only = aquí solo puedo responder a tus propias órdenes, así que los miembros no pueden desafiarse: juega contra mí (rival: el bot), o desafía a un miembro en un servidor que me haya añadido
error-level = el nivel debe ser auto, o un número del 1 al 5

## Negativas de las reglas

move-unreadable = no se entiende `{$text}` como jugada: escríbela como e2-e3, o d4xe5 para una captura
move-game-over = la partida ha terminado
move-off-board = {$square} está fuera del tablero: este tablero es de {$size} (columnas de la a a la {$last_column}, filas de la 1 a la {$rows})
move-no-piece = no hay ninguna pieza en {$square}
move-not-your-piece = la pieza de {$square} no es tuya: mueven las { $side ->
    [black] negras
   *[white] blancas
  }
move-not-forward = las piezas solo avanzan
move-too-far = una pieza avanza una sola casilla cada vez
move-own-piece = {$square} está ocupada por una pieza tuya
move-straight-capture = las jugadas rectas no pueden capturar: {$square} está bloqueada
move-nothing-to-capture = no hay nada que capturar en {$to}: escribe {$from}-{$to}
move-no-move-to = ninguna pieza tuya puede ir a {$square}
move-ambiguous = más de una pieza puede ir a {$square}: escribe {$options}
move-or = {$first} o {$second}
size-unreadable = no se entiende el tamaño de tablero `{$text}`: escribe columnas x filas, como 8x8 o 6x5
size-unsupported = {$columns}x{$rows} no es un tablero admitido: los tableros tienen de {$min_columns} a {$max_columns} columnas y de {$min_rows} a {$max_rows} filas

## La consola (la interfaz de terminal)

# Las palabras propias de la consola, y los valores de sus opciones: se pueden escribir en
# español o en inglés.
console-word-help = ayuda
console-word-wait = esperar
console-word-quit = salir
console-value-black = negras
console-value-white = blancas
console-value-random = azar
console-value-yes = sí
console-value-auto = auto
console-value-no = no
console-opt-confirm = confirmar

console-welcome = Consola de Breakthrough. Escribe { console-word-help }, o una línea como: @alice /{ -cmd-challenge } { -opt-opponent }:@bob
console-players = {$black_piece} Negras: {$black} · {$white_piece} Blancas: {$white}
console-last-move = Última jugada: {$move}
console-wait-too-long = { console-word-wait } adelanta el reloj como mucho un año ({$days} d) cada vez
console-clock-moved = (el reloj avanza {$duration})
console-wait-how = { console-word-wait } necesita una duración, como 30m, 2h o 1d
console-ai-plays-itself = @{$ai} es la IA integrada: juega sola; desafíala con /{ -cmd-challenge } { -opt-opponent }:@{$ai}
console-command-missing = escribe un comando después del nombre, como @alice /{ -cmd-help }
console-private = (solo para @{$name}) {$text}
console-dm = (mensaje directo a @{$name}) {$text}
console-line-how = las líneas son como `@alice /{ -cmd-challenge } { -opt-opponent }:@bob`; escribe { console-word-help }
console-ai-game = {$name} empieza una partida contra la IA (nivel {$level}).
console-answer = @{$name}: responde con /{ -cmd-accept } o /{ -cmd-decline }
console-answer-open = cualquiera de aquí puede responder con /{ -cmd-accept }
console-accepted = {$name} ha aceptado: empieza la partida.
console-declined = {$name} ha rechazado el desafío #{$id} de {$challenger}.
console-cancelled = {$name} ha cancelado { $count ->
    [one] el desafío
   *[other] los desafíos
  } {$ids}.
console-confirm-resign = ¿Abandonar la partida #{$id}? Envía /{ -cmd-resign } { -opt-game }:{$id} { console-opt-confirm }:{ console-value-yes } para confirmarlo.
console-aborted = {$name} ha anulado la partida #{$id}: sin resultado.
console-games-of = Partidas de {$name}:
console-picture = imagen: {$path}
console-replay = repetición: {$path}
console-images-failed = no se pueden escribir imágenes en {$dir} ({$error}): la consola sigue sin ellas
console-bad-side = `{$value}` no es un color: elige { console-value-black }, { console-value-white } o { console-value-random }
console-bad-game-number = `{$value}` no es un número de partida: escríbelo como 12 o #12
console-bad-page = `{$value}` no es un número de página
console-bad-yes-or-no = `{$value}`: di { console-value-yes } o { console-value-no }
console-bad-board = `{$value}` no es una forma de mostrar los tableros: elige { cmd-settings-board-emoji } o { cmd-settings-board-image }
console-bad-on-or-off = `{$value}`: di { cmd-server-settings-threads-on } o { cmd-server-settings-threads-off }
console-bad-format = `{$value}` no es un formato de torneo: elige round-robin o swiss
console-bad-tournament-number = `{$value}` no es un número de torneo: escríbelo como 3 o #3
console-bad-number = `{$value}` no es un número
console-bad-starts-in = `{$value}` no es un plazo para empezar: escríbelo como 30m, 12h o 1d
console-which-subcommand = /{$command} va con uno de estos: {$subcommands}
console-unknown-command = comando desconocido /{$command}: escribe { console-word-help }
console-no-options = ninguna
console-unknown-option = opción desconocida `{$name}` para /{$command}; sus opciones: {$takes}
console-too-many-values = demasiados valores para /{$command}: `{$value}` (sus opciones: {$takes})
console-needs-value = /{$command} necesita {$name}: escríbelo como /{$command} {$example}
console-unreadable = no he podido leer /{$command}; sus opciones: {$takes}

## Discord: tableros, desafíos y botones

board-black = {$piece} Negras
board-white = {$piece} Blancas
board-last-move = Última jugada
board-to-play = Turno
board-result = Resultado
board-ratings = Puntuaciones
board-your-move = {$mention}, te toca mover.
challenge-title = Desafío #{$id}
challenge-to-you = {$mention}, {$challenger} te desafía a una partida de Breakthrough.
challenge-to-anyone = {$challenger} busca rival: cualquiera de aquí puede aceptar.
challenge-closed = El desafío #{$id} está {$state}.
challenge-gone = ese desafío ya no existe
cancel-done = { $count ->
    [one] Desafío cancelado:
   *[other] Desafíos cancelados:
  } {$ids}.
button-accept = Aceptar
button-decline = Rechazar
button-cancel = Cancelar
button-resign = Abandonar
button-keep-playing = Seguir jugando
button-rematch = Revancha
button-move = Mover
menu-choose-move = Elige tu jugada.
menu-choose-piece = Elige la pieza que mueves.
menu-choose-target = Elige adónde va la pieza de {$square}.
menu-other-piece = Otra pieza
menu-move-placeholder = Tu jugada
menu-piece-placeholder = Una pieza que puede mover
menu-piece = {$square} → {$targets}
menu-step = {$from} a {$to}
menu-capture = {$from} captura en {$to}
menu-changed = La partida ha seguido desde que se abrió este menú; aquí está como va.
menu-played = Has jugado {$mv} en la partida #{$id}.
button-previous = Anterior
button-next = Siguiente
resign-confirm = ¿Abandonar la partida #{$id}? Gana tu rival.
resign-kept-playing = Sigues jugando.
resign-done = Has abandonado la partida #{$id}.
ai-failed = La IA no ha podido responder ahora mismo; su jugada se publicará aquí.
leaderboard-embed-title = Clasificación · {$size}
games-own-title = Tus partidas
games-your-move = Te toca
games-waiting = Esperando a tu rival
games-own-none = No tienes ninguna partida en curso.
games-board = tablero
games-title = Partidas de {$name}
games-direct-own-only = por mensaje directo solo puedes ver tus propias partidas: pregunta en un servidor por las de otra persona
ratings-need-server = las puntuaciones son de cada servidor: pregunta en uno
ratings-server-only = las puntuaciones son de cada servidor
history-no-moves = Todavía no hay jugadas.
history-status = Estado
discord-unreadable-option = No he podido leer la opción{$what}
discord-command-changed = este comando ha cambiado desde la última vez que Discord lo vio; vuelve a intentarlo en un minuto
discord-dead-button = este botón ya no hace nada
discord-command-refused = este comando no se puede usar aquí

## El análisis del motor de una partida (/analizar). Las probabilidades son las del bando que se
## nombra (o del que movió); 0 % y 100 % solo cuando el motor demuestra el resultado.

analysis-title = Análisis de la partida #{$id}
analysis-players = {$black} (negras) contra {$white} (blancas) · {$size} · { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }
analysis-no-moves = Todavía no hay jugadas que analizar.
analysis-decided = La partida se decidió en la jugada {$number}, {$move} de las { $mover ->
    [black] negras
   *[white] blancas
  }: desde ahí ganan las { $side ->
    [black] negras
   *[white] blancas
  } en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }.
analysis-decided-start = La partida estaba decidida desde el principio: con el mejor juego ganan las { $side ->
    [black] negras
   *[white] blancas
  } en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }.
analysis-undecided = El motor no ha demostrado ninguna victoria forzada en estas jugadas.
analysis-worst-title = Las peores jugadas de las { $side ->
    [black] negras
   *[white] blancas
  } (sus probabilidades antes → después, y la jugada del motor):
analysis-worst = {$number}. {$move}: {$before} → {$after}, mejor {$best}
analysis-no-mistakes = ninguna: ninguna jugada perdió un {$percent} % o más
analysis-no-move = ninguna
analysis-chance = {$percent} %
analysis-won = ganada
analysis-lost = perdida
analysis-wins-in = gana en {$moves}
analysis-loses-in = pierde en {$moves}
analysis-scale = Las probabilidades son las del motor: un bando con tres piezas de ventaja tiene alrededor del 73 %; 0 % y 100 % solo cuando demuestra el resultado.
analysis-file-header = n.º · bando · jugada · probabilidades del bando que movió, antes → después · la jugada del motor
analysis-file-line = {$ply} · { $side ->
    [black] negras
   *[white] blancas
  } · {$move} · {$before} → {$after} · {$best}

## La ayuda, y la leyenda del tablero

help =
    Breakthrough: mueve una pieza una casilla hacia delante, en recto o en diagonal, a una casilla vacía; solo se captura en diagonal hacia delante. Gana quien llega a la última fila o captura todas las piezas rivales. Empiezan las negras.
    Jugadas: e7-e6, o d4xe5 para una captura (también valen e7e6 y e7 e6; e6 a secas cuando solo una pieza puede ir allí).
    Comandos:
    /{ -cmd-challenge } [{ -opt-opponent }] [{ -opt-size }] [{ -opt-color }] [{ -opt-time }] [{ -opt-rated }] · desafía a un miembro, o a cualquiera de aquí sin { -opt-opponent }
    /{ -cmd-challenge } { -opt-opponent }:<el bot> [{ -opt-level }] · juega al momento contra la IA (nivel 1 a 5, 3 por defecto; nunca puntuable; también por MD)
    /{ -cmd-accept } [{ -opt-challenger }] · /{ -cmd-decline } [{ -opt-challenger }] · /{ -cmd-cancel } · /{ -cmd-rematch } [{ -opt-game }] { $buttons ->
        [yes] (o el botón Revancha bajo una partida terminada: con los colores cambiados)
       *[no] (con los colores cambiados)
    }
    /{ -cmd-move } { -opt-move }:<e7-e6> [{ -opt-game }] · /{ -cmd-board } [{ -opt-game }] [{ -opt-flip }] · /{ -cmd-resign } [{ -opt-game }] · /{ -cmd-abort } [{ -opt-game }]
    /{ -cmd-vacation } { -opt-days }:<0-21> · /{ -cmd-notify } [{ -opt-dm }] · /{ -cmd-games } [{ -opt-user }] · /{ -cmd-leaderboard } [{ -opt-size }] [{ -opt-page }] · /{ -cmd-rating } [{ -opt-user }] [{ -opt-size }] · /{ -cmd-history } [{ -opt-game }] · /{ -cmd-help }
    /{ -cmd-analyze } [{ -opt-game }] · el motor repasa una partida terminada (o contra la IA): las peores jugadas y dónde se decidió
    /{ -cmd-team-game } [{ -opt-size }] [{ -opt-color }] [{ -opt-level }] [{ -opt-window }] · el canal vota cada jugada contra la IA
    /{ cmd-puzzle-name } [{ -opt-size } o diario] · un problema demostrado por el motor, con /{ -cmd-move }
    /{ -cmd-settings } [{ -opt-board }] · /{ -cmd-server-settings } [{ -opt-board }] [{ -opt-threads }] · tableros como emoji o imágenes, para ti o el servidor, y un hilo por partida
    /{ -cmd-tournament } { cmd-tournament-create-name } · { cmd-tournament-join-name } · { cmd-tournament-leave-name } · { cmd-tournament-start-name } · { cmd-tournament-standings-name } · { cmd-tournament-pairings-name } · { cmd-tournament-withdraw-name } · { cmd-tournament-cancel-name } · torneos: { $buttons ->
        [yes] quien puede gestionar el servidor crea uno
       *[no] cualquier miembro crea uno
    } (todos contra todos: cada pareja juega una vez, todas las partidas a la vez; suizo: rondas emparejadas por puntos, sin repetir rival, alternando colores, un descanso vale 1 punto); { $buttons ->
        [yes] los miembros se inscriben con su botón.
       *[no] los miembros se inscriben con /{ -cmd-tournament } { cmd-tournament-join-name }.
    } Ganar da 1 punto. Desempates: todos contra todos: encuentro directo, Sonneborn-Berger, menos derrotas por tiempo; suizo: Buchholz menos el peor, Sonneborn-Berger, encuentro directo
console-help =
    Consola: cada línea es `@miembro /comando opciones`, actuando como ese miembro en un servidor local.
    Las opciones se escriben como nombre:valor ({ -opt-opponent }:@bob { -opt-size }:7x7 { -opt-time }:1h) o como valores sueltos en orden (/{ -cmd-move } e7-e6).
    `{ console-word-wait } 2h` adelanta el reloj; `{ console-word-quit }` sale. Las líneas que empiezan por # se ignoran.
    La IA integrada es @bot: `@alice /{ -cmd-challenge } { -opt-opponent }:@bot { -opt-level }:2 { -opt-size }:6x6` empieza una partida al momento
    (nivel 1 principiante a 5 fuerte, 3 por defecto; nunca puntuable), y la IA responde a cada una de tus jugadas.
board-legend = ⚫ negras · ⚪ blancas · 🖤/🤍 la pieza que acaba de mover · flecha: de dónde venía

## Comandos de barra: los nombres que muestra Discord y sus descripciones (100 caracteres como
## mucho). Nombres: minúsculas, cifras, - o _, 32 caracteres como mucho. Los textos que nombran
## un comando usan estos mismos términos, para que cada comando se llame igual en todas partes.

-cmd-challenge = desafiar
-cmd-accept = aceptar
-cmd-decline = rechazar
-cmd-cancel = cancelar
-cmd-rematch = revancha
-cmd-move = mover
-cmd-board = tablero
-cmd-resign = abandonar
-cmd-abort = anular
-cmd-games = partidas
-cmd-leaderboard = clasificación
-cmd-rating = puntuación
-cmd-history = historial
-cmd-analyze = analizar
-cmd-help = ayuda

-opt-opponent = rival
-opt-size = tamaño
-opt-color = color
-opt-time = tiempo
-opt-rated = puntuable
-opt-level = nivel
-opt-challenger = retador
-opt-move = jugada
-opt-game = partida
-opt-user = miembro
-opt-page = página
-opt-flip = girar
-opt-days = días
-cmd-notify = avisos
-opt-dm = md
-cmd-vacation = vacaciones
-cmd-settings = ajustes
-cmd-server-settings = ajustes-servidor
-opt-board = tablero
-opt-threads = hilos

cmd-challenge-name = { -cmd-challenge }
cmd-challenge-description = Desafía a un miembro a una partida de Breakthrough (o, sin rival, a cualquiera de este canal)
cmd-challenge-opponent-name = { -opt-opponent }
cmd-challenge-opponent-description = Contra quién jugar; déjalo vacío para un desafío abierto
cmd-challenge-size-name = { -opt-size }
cmd-challenge-size-description = Tamaño del tablero, columnas x filas (por defecto 8x8)
cmd-challenge-color-name = { -opt-color }
cmd-challenge-color-description = Tu bando (por defecto al azar)
cmd-challenge-color-black-moves-first = negras (mueven primero)
cmd-challenge-color-white = blancas
cmd-challenge-color-random = al azar
cmd-challenge-time-name = { -opt-time }
cmd-challenge-time-description = Tiempo por jugada (por defecto 1 día)
cmd-challenge-time-10-minutes = 10 minutos
cmd-challenge-time-1-hour = 1 hora
cmd-challenge-time-1-day = 1 día
cmd-challenge-time-3-days = 3 días
cmd-challenge-time-7-days = 7 días
cmd-challenge-rated-name = { -opt-rated }
cmd-challenge-rated-description = Partida puntuable (por defecto sí; las partidas contra la IA nunca puntúan)
cmd-challenge-level-name = { -opt-level }
cmd-challenge-level-description = La fuerza de la IA como rival: de 1 (principiante) a 5 (fuerte); por defecto, la que te va
cmd-accept-name = { -cmd-accept }
cmd-accept-description = Acepta un desafío: el que tienes aquí, o el del retador que indiques
cmd-accept-challenger-name = { -opt-challenger }
cmd-accept-challenger-description = De quién es el desafío, si tienes varios
cmd-decline-name = { -cmd-decline }
cmd-decline-description = Rechaza un desafío que te han hecho
cmd-decline-challenger-name = { -opt-challenger }
cmd-decline-challenger-description = De quién es el desafío, si tienes varios
cmd-cancel-name = { -cmd-cancel }
cmd-cancel-description = Cancela tus desafíos pendientes en este servidor
cmd-rematch-name = { -cmd-rematch }
cmd-rematch-description = Juega otra vez una partida terminada, con los colores cambiados
cmd-rematch-game-name = { -opt-game }
cmd-rematch-game-description = Número de la partida (por defecto, tu última partida terminada aquí)
cmd-move-name = { -cmd-move }
cmd-move-description = Haz una jugada, como e7-e6 o d4xe5
cmd-move-move-name = { -opt-move }
cmd-move-move-description = Tu jugada, como e7-e6 o d4xe5
cmd-move-game-name = { -opt-game }
cmd-move-game-description = Número de la partida, si tienes varias aquí
cmd-board-name = { -cmd-board }
cmd-board-description = Muestra el tablero de una partida (a sus jugadores, desde su propio lado)
cmd-board-game-name = { -opt-game }
cmd-board-game-description = Número de la partida (por defecto, la tuya aquí)
cmd-board-flip-name = { -opt-flip }
cmd-board-flip-description = Da la vuelta al tablero (por defecto, tu lado abajo; las blancas abajo para los demás)
cmd-resign-name = { -cmd-resign }
cmd-resign-description = Abandona una partida (pide confirmación)
cmd-resign-game-name = { -opt-game }
cmd-resign-game-description = Número de la partida, si tienes varias aquí
cmd-abort-name = { -cmd-abort }
cmd-abort-description = Termina una partida sin resultado, antes de que ambos hayan movido
cmd-abort-game-name = { -opt-game }
cmd-abort-game-description = Número de la partida, si tienes varias aquí
cmd-games-name = { -cmd-games }
cmd-games-description = Tus partidas, primero las que te toca mover, en todos los servidores; o las de un miembro aquí
cmd-games-user-name = { -opt-user }
cmd-games-user-description = De quién son las partidas de aquí (por defecto, las tuyas en todas partes, solo para ti)
cmd-leaderboard-name = { -cmd-leaderboard }
cmd-leaderboard-description = Las puntuaciones de este servidor en un tamaño de tablero
cmd-leaderboard-size-name = { -opt-size }
cmd-leaderboard-size-description = Tamaño del tablero (por defecto 8x8)
cmd-leaderboard-page-name = { -opt-page }
cmd-leaderboard-page-description = Página (por defecto 1)
cmd-rating-name = { -cmd-rating }
cmd-rating-description = La puntuación, el historial y los últimos resultados de un miembro
cmd-rating-user-name = { -opt-user }
cmd-rating-user-description = De quién es la puntuación (por defecto, la tuya)
cmd-rating-size-name = { -opt-size }
cmd-rating-size-description = Tamaño del tablero (por defecto, cada uno con puntuación)
cmd-history-name = { -cmd-history }
cmd-history-description = La lista de jugadas de una partida, con un archivo de texto para guardar
cmd-history-game-name = { -opt-game }
cmd-history-game-description = Número de la partida
cmd-analyze-name = { -cmd-analyze }
cmd-analyze-description = El análisis del motor de una partida: las peores jugadas, dónde se decidió y un archivo
cmd-analyze-game-name = { -opt-game }
cmd-analyze-game-description = Número de la partida
cmd-help-name = { -cmd-help }
cmd-help-description = Reglas, notación y comandos
cmd-vacation-name = { -cmd-vacation }
cmd-vacation-description = Detén tus relojes en todas tus partidas durante unos días (0 termina las vacaciones)
cmd-vacation-days-name = { -opt-days }
cmd-vacation-days-description = Días fuera, hasta lo que te quede de este año; 0 para volver
vacation-started = Estás de vacaciones hasta el {$until}: tus relojes te esperan en { $games ->
    [one] tu partida en curso
   *[other] tus {$games} partidas en curso
  }, y se avisa a tus rivales. Si juegas en cualquier partida, terminan. { $left ->
    [one] Te queda 1 día
   *[other] Te quedan {$left} días
  } este año.
vacation-ended = Has vuelto: se acabaron tus vacaciones y tus relojes vuelven a correr. { $left ->
    [one] Te queda 1 día
   *[other] Te quedan {$left} días
  } este año.
cmd-notify-name = { -cmd-notify }
cmd-notify-description = Recibe un mensaje directo cuando te toque mover y cuando se te acabe el tiempo
cmd-notify-dm-name = { -opt-dm }
cmd-notify-dm-description = Activar o desactivar (sin indicarlo, muestra cómo está)
cmd-settings-name = { -cmd-settings }
cmd-settings-description = Tus propios ajustes, para lo que solo ves tú (sin opciones, los muestra)
cmd-settings-board-name = { -opt-board }
cmd-settings-board-description = Los tableros de tus respuestas privadas y mensajes directos (por defecto emoji)
cmd-settings-board-emoji = emoji
cmd-settings-board-image = imagen
cmd-server-settings-name = { -cmd-server-settings }
cmd-server-settings-description = Ajustes del servidor: tableros públicos y un hilo por partida (sin opciones, los muestra)
cmd-server-settings-board-name = { -opt-board }
cmd-server-settings-board-description = Los tableros de los mensajes que todos ven aquí (por defecto emoji)
cmd-server-settings-board-emoji = { cmd-settings-board-emoji }
cmd-server-settings-board-image = { cmd-settings-board-image }
cmd-server-settings-threads-name = { -opt-threads }
cmd-server-settings-threads-description = Un hilo público para cada partida que empiece en un canal (por defecto no)
cmd-server-settings-threads-on = sí
cmd-server-settings-threads-off = no
settings-member-title = Tus ajustes, para lo que solo ves tú (tableros privados y mensajes directos):
settings-server-title = Los ajustes de este servidor, para lo que ven todos aquí:
settings-board = { -opt-board }: { $board ->
    [image] { cmd-settings-board-image }
   *[emoji] { cmd-settings-board-emoji }
  }
settings-threads = { -opt-threads }: { $threads ->
    [on] { cmd-server-settings-threads-on }
   *[off] { cmd-server-settings-threads-off }
  } (un hilo público para cada partida que empiece en un canal)
settings-member-how = Cámbialos con /{ -cmd-settings } { -opt-board }:{ cmd-settings-board-emoji } o { -opt-board }:{ cmd-settings-board-image }.
settings-server-how = Quien puede gestionar el servidor los cambia con /{ -cmd-server-settings } { -opt-board }:{ cmd-settings-board-emoji }|{ cmd-settings-board-image } { -opt-threads }:{ cmd-server-settings-threads-on }|{ cmd-server-settings-threads-off }.
settings-saved = Guardado.

# Partidas en hilos propios.
thread-ended = Partida #{$id}, {$black} contra {$white}: {$result} · {$thread}
thread-trouble-permissions = Las partidas de {$channel} no pudieron tener un hilo ({$at}): necesito los permisos Crear hilos públicos y Enviar mensajes en hilos allí. Mientras tanto se juegan en su canal.
thread-trouble-full = Las partidas de {$channel} no pudieron tener un hilo ({$at}): el servidor tiene tantos hilos activos como permite Discord. Hasta que se archive alguno, se juegan en su canal.
thread-trouble-other = Las partidas de {$channel} no pudieron tener un hilo ({$at}): Discord lo rechazó (error {$code}). Mientras tanto se juegan en su canal.

# El texto alternativo de la imagen de un tablero.
alt-last-move = Última jugada: {$move}
alt-key = b: negras, w: blancas, punto: vacía; una mayúscula es la pieza que acaba de mover, * la casilla que dejó.
alt-replay = Repetición de la partida #{$id}: { $plies ->
    [one] {$plies} jugada, un fotograma
   *[other] {$plies} jugadas, un fotograma cada una
  }, desde el inicio.
history-replay = Repetición

# Torneos.
tournament-format = { $format ->
    [round_robin] Todos contra todos
   *[swiss] Suizo
  }
tournament-state = { $state ->
    [open] inscripción abierta
    [running] en juego
    [finished] terminado
   *[cancelled] cancelado
  }
tournament-tag = {$name} · ronda {$round}
tournament-rounds = { $rounds ->
    [one] {$rounds} ronda
   *[other] {$rounds} rondas
  }
tournament-rounds-default = rondas: ⌈log2 n⌉ + 1
tournament-signup = {$title} · {$state}
    {$terms}
    Organiza {$organizer}
tournament-starts-at = Empieza {$at}, o cuando lo empiece quien lo organiza.
tournament-starts-when-started = Empieza cuando lo empiece quien lo organiza (con 3 inscritos o más).
tournament-entrants = Inscritos: {$count}/{$max}
tournament-withdrawn = retirado
tournament-no-entrants = Sin inscritos.
tournament-tie-break = { $kind ->
    [direct] EP {$value}
    [sonneborn-berger] SB {$value}
    [buchholz] BH-1 {$value}
   *[on-time] perdidas por tiempo {$value}
  }
tournament-standings-title = Clasificación · {$name} · { $format ->
    [swiss] ronda {$round}/{$rounds}
   *[other] todos contra todos
  } · {$state}
tournament-line = { $points ->
    [one] {$points} pto
   *[other] {$points} ptos
  } · {$played} jugadas{ $left ->
    [-1] {""}
   *[other] , {$left} por jugar
  }{ $breaks ->
    [none] {""}
   *[other] {" · "}{$breaks}
  }
tournament-game = #{$id} {$black} (Negras) contra {$white} (Blancas): {$standing}
tournament-game-to-move = mueve {$name}, {$left}
tournament-game-won = ganó {$name}
tournament-game-aborted = sin resultado
tournament-bye = Descansa: {$name} (1 punto)
tournament-round-title = {$name} · { $format ->
    [round_robin] todas las partidas
   *[other] ronda {$round}
  }
tournament-round-news = { $format ->
    [round_robin] {$name} ha empezado: { $games ->
        [one] {$games} partida
       *[other] {$games} partidas, todas a la vez
    }. Juégalas con /mover y el número de la partida; /torneo clasificación muestra la tabla.
   *[other] {$name}: la ronda {$round} está emparejada, { $games ->
        [one] {$games} partida. Juégala
       *[other] {$games} partidas. Juégalas
    } con /mover y el número de la partida.
  }
tournament-your-games = { $format ->
    [round_robin] Tus partidas en {$name}, en {$channel}:
   *[other] Tus partidas de la ronda {$round} de {$name}, en {$channel}:
  }
tournament-won = {$name} ha terminado. Gana: {$winner}!
tournament-over = {$name} ha terminado.
tournament-cancelled = { $why ->
    [too-few] {$name} se canceló: tenía menos de 3 inscritos al empezar.
   *[organizer] {$name} se canceló. Sus partidas en juego siguen como partidas normales.
  }
tournament-withdrew = {$member} se retiró de {$name}. { $count ->
    [0] No había partidas en juego.
    [one] La partida {$games} se perdió por abandono.
   *[other] Las partidas {$games} se perdieron por abandono.
  }
tournament-entry = { $joined ->
    [yes] Estás en {$name}
   *[other] Saliste de {$name}
  } ({ $count ->
    [one] {$count} inscrito
   *[other] {$count} inscritos
  }).
tournament-error-direct = los torneos se juegan en un servidor: usa este comando en uno
tournament-error-manage-server = solo quien puede gestionar el servidor puede crear un torneo
tournament-error-not-organizer = solo quien organiza el torneo, o quien puede gestionar el servidor, puede hacer eso
tournament-error-limit = este servidor ya tiene { $count ->
    [one] {$count} torneo abierto
   *[other] {$count} torneos abiertos
  } o en juego: termina o cancela uno antes
tournament-error-players = { $format ->
    [round_robin] un todos contra todos admite de 3 a {$max} jugadores
   *[other] un suizo admite de 3 a {$max} jugadores
  }
tournament-error-rounds-swiss = solo un suizo tiene rondas que fijar: en un todos contra todos cada pareja juega una vez
tournament-error-rounds = un suizo tiene de 1 a {$max} rondas
tournament-error-name = el nombre de un torneo tiene de 1 a {$max} caracteres
tournament-error-starts-in = un torneo empieza dentro de {$max} como mucho
tournament-error-not-found = no hay torneo #{$id} en este servidor
tournament-error-none-here = no hay ningún torneo abierto o en juego en este servidor
tournament-error-which = di qué torneo: {$list}
tournament-error-full = el torneo está completo ({$max} inscritos)
tournament-error-already-in = ya estás en este torneo
tournament-error-not-in = no estás en este torneo
tournament-error-started = el torneo ha empezado: la inscripción está cerrada (para dejarlo, retírate)
tournament-error-not-started = el torneo aún no ha empezado (para dejarlo antes del comienzo, sal de él)
tournament-error-over = el torneo ha terminado
tournament-error-too-few = un torneo necesita 3 inscritos o más para empezar, y tiene {$count}
tournament-error-withdrawn = ya te retiraste de este torneo
tournament-error-round = aún no hay ronda {$round}
tournament-error-abort = una partida de torneo no se puede anular: juégala, o abandona
tournament-error-wait = `{$text}` no es una espera: escríbela como 1d, 12h o 30m
tournament-winner = ¡Enhorabuena, {$mention}!
button-join = Inscribirme
button-leave = Salir

## /torneo: los nombres de sus subcomandos se unen al del comando en los ids
## (cmd-tournament-create-…).

-cmd-tournament = torneo
-opt-tournament = torneo
cmd-tournament-name = { -cmd-tournament }
cmd-tournament-description = Torneos en este servidor: inscríbete, juega y mira la clasificación
cmd-tournament-create-name = crear
cmd-tournament-create-description = Crea un torneo en este canal (Gestionar servidor)
cmd-tournament-create-name-name = nombre
cmd-tournament-create-name-description = El nombre del torneo
cmd-tournament-create-format-name = formato
cmd-tournament-create-format-description = todos contra todos: cada pareja juega una vez; suizo: rondas emparejadas por puntos
cmd-tournament-create-format-round-robin = todos contra todos
cmd-tournament-create-format-swiss = suizo
cmd-tournament-create-size-name = { -opt-size }
cmd-tournament-create-size-description = Tamaño del tablero, columnas x filas (por defecto 8x8)
cmd-tournament-create-time-name = { -opt-time }
cmd-tournament-create-time-description = Tiempo por jugada (por defecto 1 día)
cmd-tournament-create-time-10-minutes = 10 minutos
cmd-tournament-create-time-1-hour = 1 hora
cmd-tournament-create-time-1-day = 1 día
cmd-tournament-create-time-3-days = 3 días
cmd-tournament-create-time-7-days = 7 días
cmd-tournament-create-rated-name = { -opt-rated }
cmd-tournament-create-rated-description = Partidas puntuables (por defecto sí)
cmd-tournament-create-rounds-name = rondas
cmd-tournament-create-rounds-description = Solo suizo: el número de rondas (por defecto log2 de los jugadores, más 1)
cmd-tournament-create-max_players-name = máximo_jugadores
cmd-tournament-create-max_players-description = Cuántos jugadores admite como mucho (por defecto 32 en todos contra todos, 128 en suizo)
cmd-tournament-create-starts_in-name = empieza_en
cmd-tournament-create-starts_in-description = Cuándo empieza solo, como 1d, 12h o 30m (por defecto: cuando lo empieces tú)
cmd-tournament-join-name = unirse
cmd-tournament-join-description = Inscríbete en un torneo antes de que empiece
cmd-tournament-join-tournament-name = { -opt-tournament }
cmd-tournament-join-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-leave-name = salir
cmd-tournament-leave-description = Sal de un torneo antes de que empiece
cmd-tournament-leave-tournament-name = { -opt-tournament }
cmd-tournament-leave-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-start-name = empezar
cmd-tournament-start-description = Empieza un torneo ya (su organizador, o Gestionar servidor)
cmd-tournament-start-tournament-name = { -opt-tournament }
cmd-tournament-start-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-standings-name = clasificación
cmd-tournament-standings-description = La clasificación de un torneo
cmd-tournament-standings-tournament-name = { -opt-tournament }
cmd-tournament-standings-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-pairings-name = emparejamientos
cmd-tournament-pairings-description = Las partidas de una ronda de un torneo
cmd-tournament-pairings-tournament-name = { -opt-tournament }
cmd-tournament-pairings-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-pairings-round-name = ronda
cmd-tournament-pairings-round-description = Qué ronda (por defecto: la que se juega)
cmd-tournament-withdraw-name = retirarse
cmd-tournament-withdraw-description = Deja un torneo en marcha: pierdes las partidas que te quedan; las jugadas cuentan
cmd-tournament-withdraw-tournament-name = { -opt-tournament }
cmd-tournament-withdraw-tournament-description = Qué torneo (por defecto: el único de aquí)
cmd-tournament-cancel-name = cancelar
cmd-tournament-cancel-description = Cancela un torneo; sus partidas en juego siguen como normales (organizador, Gestionar servidor)
cmd-tournament-cancel-tournament-name = { -opt-tournament }
cmd-tournament-cancel-tournament-description = Qué torneo (por defecto: el único de aquí)

## Puzzles

puzzle-title = Problema #{$id} (puntuación {$rating}): juegan las { $side ->
    [black] negras
   *[white] blancas
  } y ganan en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }.
puzzle-last-reply = La última respuesta del bot: {$reply}.
puzzle-resumed = Ya estás resolviendo este problema, así que aquí lo tienes otra vez: termínalo antes de pedir otro.
puzzle-answer-how = Responde con /move.
puzzle-right = {$played} es correcta. El bot responde {$reply}. Juegan las { $side ->
    [black] negras
   *[white] blancas
  } y ganan en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }.
puzzle-solved = {$played} gana: ¡problema #{$id} resuelto!
puzzle-failed = {$played} deja escapar la victoria: problema #{$id} fallado.
puzzle-solution = La solución: {$line}
puzzle-rating-change = Puntuación de problemas: {$before} → {$after} ({$change})
puzzle-not-rated = Sin puntuar: ya intentaste este problema antes.
puzzle-streak = Problemas resueltos seguidos: {$streak} (mejor racha {$best})
puzzle-card = Puntuación de problemas de {$name}: {$value} (desviación {$deviation}) · {$solved} resueltos de {$attempted} · racha {$streak} (mejor {$best})
puzzle-daily-title = Problema del día {$day}
puzzle-daily-count = { $solved ->
    [one] {$solved} miembro resolvió el problema de hoy
   *[other] {$solved} miembros resolvieron el problema de hoy
  }, de {$tried} que lo intentaron.
puzzle-daily-next = El próximo problema del día llega {$at}.
puzzle-daily-busy = Termina primero el problema que estás resolviendo y vuelve a pedir el problema del día.
puzzle-daily-tried = { $solved ->
    [yes] Resolviste el problema de hoy.
   *[no] No resolviste el problema de hoy.
  }
puzzle-daily-post = Juegan las { $side ->
    [black] negras
   *[white] blancas
  } y ganan en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }. Pruébalo con /puzzle daily: nadie ve la respuesta antes de intentarlo.
puzzle-error-none = todavía no hay problemas en {$size}
puzzle-error-no-size = no hay problemas en {$size}; los hay en {$sizes}
puzzle-error-no-puzzle = no estás resolviendo ningún problema: pide uno con /puzzle
puzzle-error-daily-direct = el problema del día es de un servidor: pídelo en uno de sus canales
puzzle-error-changed = otra de tus jugadas llegó antes a este problema: mira cómo está con /puzzle
console-value-daily = diario
console-bad-puzzle = `{$value}` no es un problema que pedir: escribe un tamaño de tablero como 6x6, o { console-value-daily }
console-bad-member = `{$value}` no es el nombre de un miembro: un nombre tiene de 1 a {$max} caracteres
console-no-member = no hay ningún miembro llamado {$name} aquí: un miembro es quien ha jugado, retado o sido retado aquí
## Resultados demostrados en el análisis de una partida (/analyze): lo que el motor ha demostrado,
## contado en jugadas del ganador, como el resto del análisis.

analysis-proven = ganan las { $side ->
    [black] negras
   *[white] blancas
  } en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  } desde aquí
analysis-missed = dejó escapar una victoria en { $moves ->
    [one] {$moves} jugada
   *[other] {$moves} jugadas
  }: {$win} gana
analysis-missed-title = Victorias que se escaparon (demostradas por el motor):
analysis-missed-line = {$number}. {$move} de las { $side ->
    [black] negras
   *[white] blancas
  }: {$missed}
analysis-file-proofs = resultados demostrados

## El comando /puzzle

cmd-puzzle-name = problema
cmd-puzzle-description = Un problema que resolver, cerca de tu puntuación de problemas; o el problema del día del servidor
cmd-puzzle-size-name = { -opt-size }
cmd-puzzle-size-description = Tamaño del tablero (por defecto 8x8), o diario: el problema del día del servidor
cmd-puzzle-size-6x6 = 6x6
cmd-puzzle-size-7x7 = 7x7
cmd-puzzle-size-8x8 = 8x8
cmd-puzzle-size-daily = { console-value-daily }

## Vote games
team-started = Partida #{$id}: {$team} juega con { $side ->
    [black] negras
   *[white] blancas
  } contra la IA (nivel {$level}), votando cada jugada. Vota con /{ -cmd-move } o el botón Mover; cada ventana dura { $window ->
    [minutes] 10 minutos
    [hour] 1 hora
   *[day] 1 día
  }, y al cerrarse se juega la jugada más votada.
team-vote-counted = Tu voto por {$move} en la partida #{$id} está contado.
team-vote-changed = Tu voto en la partida #{$id} es ahora {$move}.
team-vote-count = {$move} ({$count})
team-vote-standing = En cabeza: {$leading} · { $voters ->
    [one] 1 votante
   *[other] {$voters} votantes
  }.
team-window-closes = La ventana se cierra {$at}.
team-moved = {$team} juega {$move}, con {$votes} de { $voters ->
    [one] 1 voto
   *[other] {$voters} votos
  }.
team-window-extended = Nadie votó en la ventana de {$team} en la partida #{$id}: se alarga una vez, hasta {$until}. Una segunda ventana vacía pierde la partida.
team-credit = {$name} {$played} de {$votes}
team-credits = La partida #{$id} ha terminado. Votos jugados: {$credits}.
team-credits-none = La partida #{$id} ha terminado; nadie votó en ella.
team-error-direct = las partidas por votación se juegan en un canal de un servidor, no en mensajes directos
team-error-window = la ventana de una partida por votación es de 10 minutos, 1 hora o 1 día
team-error-limit = este servidor ya tiene {$count} partidas por votación en curso; espera a que termine una
team-error-channel-busy = este canal, o el que sería su rival, ya juega una partida por votación; espera a que termine
team-error-no-game = en este canal no se juega ninguna partida por votación
team-error-not-your-turn = en la partida #{$id} le toca al otro bando; vota cuando se abra la ventana de tu canal
team-error-window-closed = la ventana de la partida #{$id} se cerró antes de que llegara tu voto, así que no cuenta
team-error-other-side = votaste por el otro bando de la partida #{$id}; cada miembro vota por un solo bando
board-team-vote = {$channel}, votad vuestra jugada con /{ -cmd-move } o el botón Mover. {$closes}

-cmd-team-game = partida-equipo
-opt-window = ventana
cmd-team-game-name = { -cmd-team-game }
cmd-team-game-description = Partida por votación: este canal contra la IA u otro canal; sus miembros votan cada jugada
cmd-team-game-opponent-name = { -opt-opponent }
cmd-team-game-opponent-description = Otro canal de este servidor como rival; déjalo vacío para jugar contra la IA
cmd-team-game-size-name = { -opt-size }
cmd-team-game-size-description = Tamaño del tablero, columnas x filas (por defecto 8x8)
cmd-team-game-color-name = { -opt-color }
cmd-team-game-color-description = El bando del canal (por defecto al azar)
cmd-team-game-color-black-moves-first = { cmd-challenge-color-black-moves-first }
cmd-team-game-color-white = { cmd-challenge-color-white }
cmd-team-game-color-random = { cmd-challenge-color-random }
cmd-team-game-level-name = { -opt-level }
cmd-team-game-level-description = La fuerza de la IA: de 1 (principiante) a 5 (fuerte); por defecto 3
cmd-team-game-window-name = { -opt-window }
cmd-team-game-window-description = Cuánto dura cada votación (por defecto 1 hora)
cmd-team-game-window-10-minutes = { cmd-challenge-time-10-minutes }
cmd-team-game-window-1-hour = { cmd-challenge-time-1-hour }
cmd-team-game-window-1-day = { cmd-challenge-time-1-day }
team-started-channels = Partida #{$id}: {$black} (negras) juega contra {$white} (blancas), y cada canal vota sus jugadas. Vota con /{ -cmd-move } o el botón Mover en tu canal; cada ventana dura { $window ->
    [minutes] 10 minutos
    [hour] 1 hora
   *[day] 1 día
  }, y al cerrarse se juega la jugada más votada. Cada miembro vota por un solo bando.
team-error-same-channel = un canal no puede jugar contra sí mismo; elige otro canal de este servidor, o deja el rival vacío para jugar contra la IA
console-team-channels = la consola tiene un solo canal, así que aquí una partida por votación se juega contra la IA; las partidas entre canales se juegan en Discord
team-votes-so-far = { $count ->
    [one] 1 voto hasta ahora.
   *[other] {$count} votos hasta ahora.
  }
