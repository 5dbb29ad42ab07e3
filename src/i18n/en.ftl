# English: the words players read. The fallback for every other language.
#
# Every message here is used by the code, with the same variables in every catalogue (a test
# checks both). Moves and squares stay in algebraic notation (e2-e3, d4xe5) in every language.
# $side is `black` or `white`.

## Durations and time controls

duration-under-minute = less than a minute
duration-minutes = {$minutes}m
duration-hours = {$hours}h {$minutes}m
duration-days = {$days}d {$hours}h
time-ten-minutes = 10 minutes per move
time-one-hour = 1 hour per move
time-one-day = 1 day per move
time-three-days = 3 days per move
time-seven-days = 7 days per move
slow-down = you are sending commands too fast: try again in {$seconds} s
place-direct = our direct messages
place-channel = channel {$id}

## Games: titles, status lines, results

game-title = Game #{$id} · {$size} · {$rating} · {$time}
game-title-ai = Game #{$id} · {$size} · vs AI (level {$level}) · {$rating} · {$time}
game-rating = { $rating ->
    [rated] rated
    [unrated] unrated
   *[casual] casual
  }
ai-played = The AI (level {$level}) played {$move}.
move-played = {$move} was played.
reminder = your move in game #{$id}: {$left}.
vacation-away = {$name} is on vacation until {$until}
vacation-told = {$name} is on vacation until {$until}: in game #{$id} their clock waits for them; yours runs as usual.
dm-your-move = Your move in game #{$id} against {$opponent}: {$opponent} played {$move}. {$left}
dm-first-move = Your move in game #{$id} against {$opponent}: the game has begun and you have the first move. {$left}
dm-reminder = Your time is running short in game #{$id} against {$opponent}: {$left}.
dm-go-to-game = Go to the game: {$link}
# The time left to move: a span in plain text, or when it runs out as Discord shows a moment.
time-left = {$span} left
time-left-sentence = {$span} left.
time-runs-out = time runs out {$at}
time-runs-out-sentence = Time runs out {$at}.
time-in = in {$span}
notify-on = Turn notifications by direct message are on: I will message you each time it is your turn, and when your time runs short. /{ -cmd-notify } { -opt-dm }:{$off} turns them off.
notify-off = Turn notifications by direct message are off. /{ -cmd-notify } { -opt-dm }:{$on} turns them on.
notify-refused = Your turn notifications are off: Discord would not deliver my direct messages to you. Allow direct messages from this server's members, then turn them on again with /{ -cmd-notify } { -opt-dm }:True.
played-late = Your move {$move} in game #{$id} is played; the board is posted in the channel.
unrated-early = unrated: it ended before both sides had moved
status-active = Move {$number} · { $side ->
    [black] Black
   *[white] White
  } to move: {$name} · {$left}
status-won = { $side ->
    [black] Black
   *[white] White
  } ({$name}) wins: {$reason}
status-aborted = Aborted: no result
reason-resigned = {$loser} resigned
reason-timed-out = {$loser} ran out of time
end-breakthrough = a piece reached the far row
end-all-captured = every opposing piece was captured
end-no-moves = the other side had no legal move
end-resignation = resignation
end-timeout = time ran out
end-aborted = aborted
games-none = {$name} has no game in progress.
game-against = #{$id} against {$opponent}

## Challenges

challenge = Challenge #{$id}: {$whom} · {$size} · {$side} · {$time} · {$rating} · {$state}
challenge-whom = {$challenger} challenges {$opponent}
challenge-open = {$challenger} is looking for an opponent
challenge-side = {$challenger} plays { $side ->
    [black] black
   *[white] white
  }
challenge-side-random = sides drawn at random
challenge-casual-by-limit = { $limit ->
    [one] casual (you have played your rated game against each other today)
   *[other] casual (you have played your {$limit} rated games against each other today)
  }
challenge-expires = expires {$left}
challenge-state = { $state ->
    [pending] pending
    [accepted] accepted
    [declined] declined
    [cancelled] cancelled
   *[expired] expired
  }
challenge-expired = Challenge #{$id} from {$challenger} expired.

## Ratings and the leaderboard

rating-card = {$name} on {$size}: {$value} (deviation {$deviation}) · { $games ->
    [one] {$games} game
   *[other] {$games} games
  }, { $wins ->
    [one] {$wins} win
   *[other] {$wins} wins
  }, { $losses ->
    [one] {$losses} loss
   *[other] {$losses} losses
  }
rating-provisional = ? = provisional: a few more rated games settle it
rating-recent = #{$id} { $won ->
    [yes] won
   *[no] lost
  } against {$opponent} ({$reason}) {$change}
rating-more = Also rated on {$sizes}: /{ -cmd-rating } { -opt-size }:{$example} shows a card for each.
leaderboard-title = Leaderboard {$size} · page {$page}/{$pages}
leaderboard-empty = No rated games yet.
leaderboard-provisional = Provisional (a few more rated games earn a rank):

## A game's file (the tags stay as they are: only their values are words)

export-result-won = { $side ->
    [black] black
   *[white] white
  } wins ({$reason})
export-aborted = aborted
export-in-progress = in progress
export-rated = { $rated ->
    [yes] yes
   *[no] no
  }

## Refusals of the game service

error-self-challenge = you cannot challenge yourself
error-declined = {$name} declined your challenge: you can challenge them again in {$wait}
error-too-many-challenges-to = you have challenged {$name} { $limit ->
    [one] once
   *[other] {$limit} times
  } in the last hour, the most allowed: you can challenge them again in {$wait}
error-bot-opponent = {$name} is a bot: bots cannot play here
error-duplicate-challenge = there is already a pending challenge between you and {$name}
error-duplicate-open-challenge = you already have an open challenge in this channel
error-too-many-challenges = you have { $count ->
    [one] {$count} pending challenge
   *[other] {$count} pending challenges
  }, the most allowed: cancel one or wait for an answer
error-too-many-games = you already have { $limit ->
    [one] {$limit} game
   *[other] {$limit} games
  } in progress, the most allowed
error-opponent-too-many-games = {$name} already has { $limit ->
    [one] {$limit} game
   *[other] {$limit} games
  } in progress, the most allowed
error-not-in-server = challenges between members are made in a server channel; in a direct message you can play the AI (choose me as opponent) and view games and ratings
error-level-without-ai = level is for games against the AI: choose the bot as opponent, or leave level out
error-rated-ai = games against the AI are never rated: leave { -opt-rated } out, or set it to no
error-no-such-challenge = there is no challenge #{$id}
error-no-challenge-for-you = there is no pending challenge for you here
error-no-challenge-from = {$name} has no pending challenge for you here
error-no-challenge-to-cancel = you have no pending challenge here
error-ambiguous-challenge = you have several pending challenges here; say whose: {$names}
error-challenge-closed = this challenge is {$state}
error-not-your-challenge = this challenge is for {$name}: only they can answer it
error-decline-own-open = this challenge is for someone else: only they can answer it
error-not-your-cancel = only {$name} can cancel this challenge
error-decline-open = open challenges cannot be declined: leave it, or let it expire
error-no-such-game = there is no game #{$id} here
error-played-elsewhere = game #{$id} is played in {$place}; { $action ->
    [move] make your move there
    [resign] resign there
   *[abort] abort it there
  }
error-no-active-game = you have no game in progress in this channel
error-games-elsewhere = you have no game in progress in this channel; { $count ->
    [one] yours is in {$channels}
   *[other] your {$count} games are in {$channels}
  }
error-ambiguous-game = you have several games in this channel; say which with { -opt-game }: {$games}
error-not-a-player = you are not playing in game #{$id}
error-rematch-too-early = game #{$id} is still in progress: a rematch can be asked for once it is over
error-rematch-taken = the rematch of game #{$id} has already been offered
error-nothing-to-rematch = you have no finished game in this channel to play again
error-which-game = you have no game here: say which game with its number (game:12)
error-vacation-days = { $left ->
    [0] you have no vacation days left this year (a year is the last 365 days)
    [one] you have 1 vacation day left this year; ask for 1
   *[other] you have {$left} vacation days left this year; ask for 1 to {$left}
  }
error-already-on-vacation = you are on vacation until {$until}; end it with { -opt-days }:0 first
error-not-on-vacation = you are not on vacation
error-server-settings-in-direct = a server's settings are changed in one of its channels, not in a direct message
error-not-your-turn = it is not your turn: {$name} is to move
error-game-over = game #{$id} is over
error-abort-too-late = a game can only be aborted before both players have moved: resign instead
error-out-of-time = your time for this move ran out; the game ends at the next clock check
error-position-changed = the position changed while your move was on its way: look at the board and try again
error-too-many-ai-games = you already have {$count} { $count ->
    [one] game
   *[other] games
  } against the AI in progress, the most allowed: finish or resign one first
error-ai-busy-for-you = the AI is still answering your move in game #{$id}: wait for its reply, then try again
error-ai-queue-full = the AI is busy answering other players: try again in a moment
error-analysis-in-progress = game #{$id} is still being played: a game between members can be analysed once it is over, so that the engine helps no one during play
error-analysis-busy-for-you = the AI is still analysing game #{$id} for you: wait for it, then try again
error-storage-full = the bot's storage is full, so nothing was changed: please tell the server's admin, and try again later
error-internal = something went wrong on our side; please try again
error-unavailable = the bot cannot reach its database just now, so nothing was changed: please try again in a moment
error-time-control = `{$text}` is not a time control: choose 10m, 1h, 1d, 3d or 7d
error-answers-only = here I can only answer your own commands, so members cannot challenge each other: play me (opponent: the bot), or challenge a member in a server that has added me
error-level = the level must be auto, or a number from 1 to 5

## Refusals of the rules

move-unreadable = cannot read `{$text}` as a move: write it like e2-e3, or d4xe5 for a capture
move-game-over = the game is over
move-off-board = {$square} is off the board: this board is {$size} (columns a to {$last_column}, rows 1 to {$rows})
move-no-piece = there is no piece on {$square}
move-not-your-piece = the piece on {$square} is not yours: { $side ->
    [black] black
   *[white] white
  } is to move
move-not-forward = pieces only move forward
move-too-far = a piece moves one square at a time
move-own-piece = {$square} is taken by your own piece
move-straight-capture = straight moves cannot capture: {$square} is blocked
move-nothing-to-capture = there is nothing to capture on {$to}: write {$from}-{$to}
move-no-move-to = no piece of yours can move to {$square}
move-ambiguous = more than one piece can move to {$square}: write {$options}
move-or = {$first} or {$second}
size-unreadable = cannot read board size `{$text}`: write columns x rows, like 8x8 or 6x5
size-unsupported = {$columns}x{$rows} is not a supported board: boards have {$min_columns} to {$max_columns} columns and {$min_rows} to {$max_rows} rows

## The console (the terminal front end)

# The console's own words, and the values its options take: a member may type them in their
# language or in English.
console-word-help = help
console-word-wait = wait
console-word-quit = quit
console-value-black = black
console-value-white = white
console-value-random = random
console-value-yes = yes
console-value-auto = auto
console-value-no = no
console-opt-confirm = confirm

console-welcome = Breakthrough console. Type { console-word-help }, or a line like: @alice /{ -cmd-challenge } { -opt-opponent }:@bob
console-players = {$black_piece} Black: {$black} · {$white_piece} White: {$white}
console-last-move = Last move: {$move}
console-wait-too-long = { console-word-wait } moves the clock at most a year ({$days}d) at a time
console-clock-moved = (the clock moves on {$duration})
console-wait-how = { console-word-wait } takes a duration such as 30m, 2h or 1d
console-ai-plays-itself = @{$ai} is the built-in AI: it plays by itself; challenge it with /{ -cmd-challenge } { -opt-opponent }:@{$ai}
console-command-missing = write a command after the name, like @alice /{ -cmd-help }
console-private = (to @{$name} only) {$text}
console-dm = (direct message to @{$name}) {$text}
console-line-how = lines look like `@alice /{ -cmd-challenge } { -opt-opponent }:@bob`; type { console-word-help }
console-ai-game = {$name} starts a game against the AI (level {$level}).
console-answer = @{$name}: answer with /{ -cmd-accept } or /{ -cmd-decline }
console-answer-open = anyone here may answer with /{ -cmd-accept }
console-accepted = {$name} accepted: the game begins.
console-declined = {$name} declined challenge #{$id} from {$challenger}.
console-cancelled = {$name} cancelled { $count ->
   *[other] challenge
  } {$ids}.
console-confirm-resign = Resign game #{$id}? Send /{ -cmd-resign } { -opt-game }:{$id} { console-opt-confirm }:{ console-value-yes } to confirm.
console-aborted = Game #{$id} aborted by {$name}: no result.
console-games-of = Games of {$name}:
console-picture = picture: {$path}
console-replay = replay: {$path}
console-images-failed = pictures cannot be written in {$dir} ({$error}): the console goes on without them

## Discord: boards, challenges and buttons

board-black = {$piece} Black
board-white = {$piece} White
board-last-move = Last move
board-to-play = To play
board-result = Result
board-ratings = Ratings
board-your-move = {$mention}, your move.
challenge-title = Challenge #{$id}
challenge-to-you = {$mention}, {$challenger} challenges you to a game of Breakthrough.
challenge-to-anyone = {$challenger} is looking for an opponent: anyone here may accept.
challenge-closed = Challenge #{$id} is {$state}.
challenge-gone = that challenge is gone
cancel-done = Cancelled { $count ->
   *[other] challenge
  } {$ids}.
button-accept = Accept
button-decline = Decline
button-cancel = Cancel
button-resign = Resign
button-keep-playing = Keep playing
button-rematch = Rematch
button-move = Move
menu-choose-move = Choose your move.
menu-choose-piece = Choose the piece to move.
menu-choose-target = Choose where the piece on {$square} goes.
menu-other-piece = Another piece
menu-move-placeholder = Your move
menu-piece-placeholder = A piece that can move
menu-piece = {$square} → {$targets}
menu-step = {$from} to {$to}
menu-capture = {$from} takes {$to}
menu-changed = The game moved on since this menu opened; here it is as it stands.
menu-played = You played {$mv} in game #{$id}.
button-previous = Previous
button-next = Next
resign-confirm = Resign game #{$id}? Your opponent wins.
resign-kept-playing = You keep playing.
resign-done = You resigned game #{$id}.
ai-failed = The AI could not answer just now; its move will be posted here.
leaderboard-embed-title = Leaderboard · {$size}
games-title = Games of {$name}
games-own-title = Your games
games-your-move = Your move
games-waiting = Waiting for your opponent
games-own-none = You have no game in progress.
games-board = board
games-direct-own-only = in a direct message you can see your own games only: ask in a server for someone else's
ratings-need-server = ratings belong to a server: ask in one
ratings-server-only = ratings belong to a server
history-no-moves = No moves yet.
history-status = Status
discord-unreadable-option = I could not read the option{$what}
discord-command-changed = this command changed since Discord last saw it; try again in a minute
discord-dead-button = this button no longer does anything
discord-command-refused = this command cannot be used here

## The engine's look back at a game (/analyze). Chances are those of the side named (or of the
## side that moved); 0% and 100% only when the engine proves the result.

analysis-title = Analysis of game #{$id}
analysis-players = {$black} (Black) against {$white} (White) · {$size} · { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }
analysis-no-moves = No moves to analyse yet.
analysis-decided = Decided by move {$number}, {$move} by { $mover ->
    [black] Black
   *[white] White
  }: from there { $side ->
    [black] Black
   *[white] White
  } wins in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }.
analysis-decided-start = Decided from the start: { $side ->
    [black] Black
   *[white] White
  } wins in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  } with best play.
analysis-undecided = The engine proved no forced win in these moves.
analysis-worst-title = { $side ->
    [black] Black's
   *[white] White's
  } worst moves (chances before → after, and the engine's move):
analysis-worst = {$number}. {$move}: {$before} → {$after}, better {$best}
analysis-no-mistakes = none: no move gave away {$percent}% or more
analysis-no-move = none
analysis-chance = {$percent}%
analysis-won = won
analysis-lost = lost
analysis-wins-in = wins in {$moves}
analysis-loses-in = loses in {$moves}
analysis-scale = Chances are the engine's: a side three pieces ahead has about 73%; 0% and 100% only when it proves the result.
analysis-file-header = ply · side · move · chances of the side that moved, before → after · the engine's move
analysis-file-line = {$ply} · { $side ->
    [black] Black
   *[white] White
  } · {$move} · {$before} → {$after} · {$best}

## Help, and the board's legend

help =
    Breakthrough: move one piece one square forward, straight or diagonally, onto an empty square; capture diagonally forward only. Reach the far row, or take every enemy piece, to win. Black moves first.
    Moves: e7-e6, or d4xe5 for a capture (e7e6 and e7 e6 work too; e6 alone when only one piece can go there).
    Commands:
    /{ -cmd-challenge } [{ -opt-opponent }] [{ -opt-size }] [{ -opt-color }] [{ -opt-time }] [{ -opt-rated }] · challenge a member, or anyone here without opponent
    /{ -cmd-challenge } { -opt-opponent }:<the bot> [{ -opt-level }] · play the built-in AI at once (level 1 beginner to 5 strong, default 3; never rated; works in DMs too)
    /{ -cmd-accept } [{ -opt-challenger }] · /{ -cmd-decline } [{ -opt-challenger }] · /{ -cmd-cancel } · /{ -cmd-rematch } [{ -opt-game }] { $buttons ->
        [yes] (or the Rematch button under a finished game: colours swapped)
       *[no] (colours swapped)
    }
    /{ -cmd-move } { -opt-move }:<e7-e6> [{ -opt-game }] · /{ -cmd-board } [{ -opt-game }] [{ -opt-flip }] · /{ -cmd-resign } [{ -opt-game }] · /{ -cmd-abort } [{ -opt-game }]
    /{ -cmd-vacation } { -opt-days }:<0-21> · /{ -cmd-notify } [{ -opt-dm }] · /{ -cmd-games } [{ -opt-user }] · /{ -cmd-leaderboard } [{ -opt-size }] [{ -opt-page }] · /{ -cmd-rating } [{ -opt-user }] [{ -opt-size }] · /{ -cmd-history } [{ -opt-game }] · /{ -cmd-help }
    /{ -cmd-analyze } [{ -opt-game }] · the engine's look back at a finished game (or one against the AI): the worst moves and where it was decided
    /{ -cmd-team-game } [{ -opt-size }] [{ -opt-color }] [{ -opt-level }] [{ -opt-window }] · this channel plays the AI, voting on each move with /{ -cmd-move }
    /{ cmd-puzzle-name } [{ -opt-size } or daily] · a puzzle the engine proved, answered with /{ -cmd-move }
    /{ -cmd-settings } [{ -opt-board }] · /{ -cmd-server-settings } [{ -opt-board }] [{ -opt-threads }] · boards as emoji or pictures, for you or for the server, and a thread for each game
    /{ -cmd-tournament } { cmd-tournament-create-name } · { cmd-tournament-join-name } · { cmd-tournament-leave-name } · { cmd-tournament-start-name } · { cmd-tournament-standings-name } · { cmd-tournament-pairings-name } · { cmd-tournament-withdraw-name } · { cmd-tournament-cancel-name } · tournaments: { $buttons ->
        [yes] a member with Manage Server creates one
       *[no] any member creates one
    } (round-robin: every pair plays once, all games at once; swiss: rounds paired by score, no rematch, colours alternating, a bye worth 1 point); { $buttons ->
        [yes] members join with its button.
       *[no] members join with /{ -cmd-tournament } { cmd-tournament-join-name }.
    } A win scores 1. Tie-breaks: round robin: direct encounter, Sonneborn-Berger, fewer games lost on time; Swiss: Buchholz cut-1, Sonneborn-Berger, direct encounter
console-help =
    Console: each line is `@member /command options`, acting as that member in one local server.
    Options are name:value ({ -opt-opponent }:@bob { -opt-size }:7x7 { -opt-time }:1h) or plain values in order (/{ -cmd-move } e7-e6).
    `{ console-word-wait } 2h` moves the clock forward; `{ console-word-quit }` leaves. Lines starting with # are skipped.
    The built-in AI is @bot: `@alice /{ -cmd-challenge } { -opt-opponent }:@bot { -opt-level }:2 { -opt-size }:6x6` starts a game at once
    (level 1 beginner to 5 strong, default 3; never rated), and the AI answers each of your moves.
board-legend = ⚫ black · ⚪ white · 🖤/🤍 the piece that just moved · arrow: where it came from
console-bad-side = `{$value}` is not a side: choose { console-value-black }, { console-value-white } or { console-value-random }
console-bad-game-number = `{$value}` is not a game number: write it like 12 or #12
console-bad-page = `{$value}` is not a page number
console-bad-yes-or-no = `{$value}`: say { console-value-yes } or { console-value-no }
console-bad-board = `{$value}` is not a way to show boards: choose { cmd-settings-board-emoji } or { cmd-settings-board-image }
console-bad-on-or-off = `{$value}`: say { cmd-server-settings-threads-on } or { cmd-server-settings-threads-off }
console-bad-format = `{$value}` is not a tournament format: choose round-robin or swiss
console-bad-tournament-number = `{$value}` is not a tournament number: write it like 3 or #3
console-bad-number = `{$value}` is not a number
console-bad-starts-in = `{$value}` is not a time to start in: write it like 30m, 12h or 1d
console-which-subcommand = /{$command} takes one of: {$subcommands}
console-unknown-command = unknown command /{$command}: type { console-word-help }
console-no-options = no options
console-unknown-option = unknown option `{$name}` for /{$command}: it takes {$takes}
console-too-many-values = too many values for /{$command}: `{$value}` (it takes {$takes})
console-needs-value = /{$command} needs {$name}: write it like /{$command} {$example}
console-unreadable = I could not read that /{$command}: it takes {$takes}

## Slash commands: the names Discord shows, and their descriptions (at most 100 characters).
## Names: lowercase letters, digits, - or _, at most 32 characters. Texts that name a command use
## the same terms, so a command is called the same everywhere.

-cmd-challenge = challenge
-cmd-accept = accept
-cmd-decline = decline
-cmd-cancel = cancel
-cmd-rematch = rematch
-cmd-move = move
-cmd-board = board
-cmd-resign = resign
-cmd-abort = abort
-cmd-games = games
-cmd-leaderboard = leaderboard
-cmd-rating = rating
-cmd-history = history
-cmd-analyze = analyze
-cmd-help = help

-opt-opponent = opponent
-opt-size = size
-opt-color = color
-opt-time = time
-opt-rated = rated
-opt-level = level
-opt-challenger = challenger
-opt-move = move
-opt-game = game
-opt-user = user
-opt-page = page
-opt-flip = flip
-opt-days = days
-cmd-notify = notify
-opt-dm = dm
-cmd-vacation = vacation
-cmd-settings = settings
-cmd-server-settings = server-settings
-opt-board = board
-opt-threads = threads

cmd-challenge-name = { -cmd-challenge }
cmd-challenge-description = Challenge a member to a game of Breakthrough (or, without opponent, anyone in this channel)
cmd-challenge-opponent-name = { -opt-opponent }
cmd-challenge-opponent-description = Who to play; leave empty for an open challenge
cmd-challenge-size-name = { -opt-size }
cmd-challenge-size-description = Board size, columns x rows (default 8x8)
cmd-challenge-color-name = { -opt-color }
cmd-challenge-color-description = Your side (default random)
cmd-challenge-color-black-moves-first = black (moves first)
cmd-challenge-color-white = white
cmd-challenge-color-random = random
cmd-challenge-time-name = { -opt-time }
cmd-challenge-time-description = Time per move (default 1 day)
cmd-challenge-time-10-minutes = 10 minutes
cmd-challenge-time-1-hour = 1 hour
cmd-challenge-time-1-day = 1 day
cmd-challenge-time-3-days = 3 days
cmd-challenge-time-7-days = 7 days
cmd-challenge-rated-name = { -opt-rated }
cmd-challenge-rated-description = Rated game (default yes; games against the AI are never rated)
cmd-challenge-level-name = { -opt-level }
cmd-challenge-level-description = The AI's strength with me as opponent: 1 beginner to 5 strong (default: the level that meets you)
cmd-accept-name = { -cmd-accept }
cmd-accept-description = Accept a challenge (the one for you here, or the one from challenger)
cmd-accept-challenger-name = { -opt-challenger }
cmd-accept-challenger-description = Whose challenge, if you have several
cmd-decline-name = { -cmd-decline }
cmd-decline-description = Decline a challenge made to you
cmd-decline-challenger-name = { -opt-challenger }
cmd-decline-challenger-description = Whose challenge, if you have several
cmd-cancel-name = { -cmd-cancel }
cmd-cancel-description = Cancel your pending challenges in this server
cmd-rematch-name = { -cmd-rematch }
cmd-rematch-description = Play a finished game again, colours swapped
cmd-rematch-game-name = { -opt-game }
cmd-rematch-game-description = Game number (default: your game here that ended last)
cmd-move-name = { -cmd-move }
cmd-move-description = Play a move, like e7-e6 or d4xe5
cmd-move-move-name = { -opt-move }
cmd-move-move-description = Your move, like e7-e6 or d4xe5
cmd-move-game-name = { -opt-game }
cmd-move-game-description = Game number, if you have several here
cmd-board-name = { -cmd-board }
cmd-board-description = Show a game's board (to its players, from their own side)
cmd-board-game-name = { -opt-game }
cmd-board-game-description = Game number (default: your game here)
cmd-board-flip-name = { -opt-flip }
cmd-board-flip-description = Turn the board round (default: your side at the bottom, or White for onlookers)
cmd-resign-name = { -cmd-resign }
cmd-resign-description = Resign a game (asks to confirm)
cmd-resign-game-name = { -opt-game }
cmd-resign-game-description = Game number, if you have several here
cmd-abort-name = { -cmd-abort }
cmd-abort-description = End a game without result, before both players have moved
cmd-abort-game-name = { -opt-game }
cmd-abort-game-description = Game number, if you have several here
cmd-games-name = { -cmd-games }
cmd-games-description = Your games, yours to move first, in every server; or a member's games here
cmd-games-user-name = { -opt-user }
cmd-games-user-description = Whose games here (default: your own, everywhere, shown to you alone)
cmd-leaderboard-name = { -cmd-leaderboard }
cmd-leaderboard-description = This server's ratings on a board size
cmd-leaderboard-size-name = { -opt-size }
cmd-leaderboard-size-description = Board size (default 8x8)
cmd-leaderboard-page-name = { -opt-page }
cmd-leaderboard-page-description = Page (default 1)
cmd-rating-name = { -cmd-rating }
cmd-rating-description = A member's rating, record and recent results
cmd-rating-user-name = { -opt-user }
cmd-rating-user-description = Whose rating (default: yours)
cmd-rating-size-name = { -opt-size }
cmd-rating-size-description = Board size (default: each size rated on)
cmd-history-name = { -cmd-history }
cmd-history-description = A game's move list, with a text file to keep
cmd-history-game-name = { -opt-game }
cmd-history-game-description = Game number
cmd-analyze-name = { -cmd-analyze }
cmd-analyze-description = The engine's look back at a game: the worst moves, where it was decided, and a file
cmd-analyze-game-name = { -opt-game }
cmd-analyze-game-description = Game number
cmd-help-name = { -cmd-help }
cmd-help-description = Rules, notation and commands
cmd-vacation-name = { -cmd-vacation }
cmd-vacation-description = Pause your clocks in all your games for some days (0 ends your vacation)
cmd-vacation-days-name = { -opt-days }
cmd-vacation-days-description = Days away, up to what is left of the year's allowance; 0 to come back
vacation-started = You are on vacation until {$until}: your clocks wait for you in { $games ->
    [one] your game in progress
   *[other] your {$games} games in progress
  }, and your opponents are told. Moving in any game ends it. { $left ->
    [one] 1 day
   *[other] {$left} days
  } left this year.
vacation-ended = Welcome back: your vacation is over and your clocks run again. { $left ->
    [one] 1 day
   *[other] {$left} days
  } left this year.
cmd-notify-name = { -cmd-notify }
cmd-notify-description = Be told by direct message when it is your turn and when your time runs short
cmd-notify-dm-name = { -opt-dm }
cmd-notify-dm-description = On or off (leave out to see the setting)
cmd-settings-name = { -cmd-settings }
cmd-settings-description = Your own settings, for what only you see (without options, shows them)
cmd-settings-board-name = { -opt-board }
cmd-settings-board-description = Boards in your private replies and direct messages (default emoji)
cmd-settings-board-emoji = emoji
cmd-settings-board-image = image
cmd-server-settings-name = { -cmd-server-settings }
cmd-server-settings-description = This server's settings: boards in public posts, a thread per game (without options, shows them)
cmd-server-settings-board-name = { -opt-board }
cmd-server-settings-board-description = Boards in the posts everyone here sees (default emoji)
cmd-server-settings-board-emoji = { cmd-settings-board-emoji }
cmd-server-settings-board-image = { cmd-settings-board-image }
cmd-server-settings-threads-name = { -opt-threads }
cmd-server-settings-threads-description = A public thread for each game started in a channel (default off)
cmd-server-settings-threads-on = on
cmd-server-settings-threads-off = off
settings-member-title = Your settings, for what only you see (private boards and direct messages):
settings-server-title = This server's settings, for what everyone here sees:
settings-board = { -opt-board }: { $board ->
    [image] { cmd-settings-board-image }
   *[emoji] { cmd-settings-board-emoji }
  }
settings-threads = { -opt-threads }: { $threads ->
    [on] { cmd-server-settings-threads-on }
   *[off] { cmd-server-settings-threads-off }
  } (a public thread for each game started in a channel)
settings-member-how = Change them with /{ -cmd-settings } { -opt-board }:{ cmd-settings-board-emoji } or { -opt-board }:{ cmd-settings-board-image }.
settings-server-how = Members who may manage the server change them with /{ -cmd-server-settings } { -opt-board }:{ cmd-settings-board-emoji }|{ cmd-settings-board-image } { -opt-threads }:{ cmd-server-settings-threads-on }|{ cmd-server-settings-threads-off }.
settings-saved = Saved.

# Games in threads of their own.
thread-ended = Game #{$id}, {$black} vs {$white}: {$result} · {$thread}
thread-trouble-permissions = Games in {$channel} could not get a thread ({$at}): I need Create Public Threads and Send Messages in Threads there. Until then they are played in their channel.
thread-trouble-full = Games in {$channel} could not get a thread ({$at}): the server has as many active threads as Discord allows. Until one is archived, games are played in their channel.
thread-trouble-other = Games in {$channel} could not get a thread ({$at}): Discord refused it (error {$code}). Until then they are played in their channel.

# A board picture's alt text.
alt-last-move = Last move: {$move}
alt-key = b: Black, w: White, dot: empty; a capital letter is the piece that just moved, * the square it left.
alt-replay = Replay of game #{$id}: { $plies ->
    [one] {$plies} move
   *[other] {$plies} moves
  }, one frame each, from the start.
history-replay = Replay

# Tournaments.
tournament-format = { $format ->
    [round_robin] Round robin
   *[swiss] Swiss
  }
tournament-state = { $state ->
    [open] open for entries
    [running] under way
    [finished] finished
   *[cancelled] cancelled
  }
tournament-tag = {$name} · round {$round}
tournament-rounds = { $rounds ->
    [one] {$rounds} round
   *[other] {$rounds} rounds
  }
tournament-rounds-default = rounds: ⌈log2 n⌉ + 1
tournament-signup = {$title} · {$state}
    {$terms}
    Organized by {$organizer}
tournament-starts-at = Starts {$at}, or when its organizer starts it.
tournament-starts-when-started = Starts when its organizer starts it (3 entrants or more).
tournament-entrants = Entrants: {$count}/{$max}
tournament-withdrawn = withdrawn
tournament-no-entrants = No entrants.
tournament-tie-break = { $kind ->
    [direct] DE {$value}
    [sonneborn-berger] SB {$value}
    [buchholz] BH-1 {$value}
   *[on-time] lost on time {$value}
  }
tournament-standings-title = Standings · {$name} · { $format ->
    [swiss] round {$round}/{$rounds}
   *[other] round robin
  } · {$state}
tournament-line = { $points ->
    [one] {$points} pt
   *[other] {$points} pts
  } · {$played} played{ $left ->
    [-1] {""}
   *[other] , {$left} left
  }{ $breaks ->
    [none] {""}
   *[other] {" · "}{$breaks}
  }
tournament-game = #{$id} {$black} (Black) vs {$white} (White): {$standing}
tournament-game-to-move = {$name} to move, {$left}
tournament-game-won = {$name} won
tournament-game-aborted = no result
tournament-bye = Bye: {$name} (1 point)
tournament-round-title = {$name} · { $format ->
    [round_robin] all games
   *[other] round {$round}
  }
tournament-round-news = { $format ->
    [round_robin] {$name} has started: { $games ->
        [one] {$games} game
       *[other] {$games} games
    }, all at once. Play them with /move and the game's number; /tournament standings shows the table.
   *[other] {$name}: round {$round} is paired, { $games ->
        [one] {$games} game
       *[other] {$games} games
    }. Play them with /move and the game's number.
  }
tournament-your-games = { $format ->
    [round_robin] Your games in {$name}, in {$channel}:
   *[other] Your games in round {$round} of {$name}, in {$channel}:
  }
tournament-won = {$name} is over. The winner: {$winner}!
tournament-over = {$name} is over.
tournament-cancelled = { $why ->
    [too-few] {$name} was cancelled: it had fewer than 3 entrants at its start.
   *[organizer] {$name} was cancelled. Its games in progress go on as ordinary games.
  }
tournament-withdrew = {$member} withdrew from {$name}. { $count ->
    [0] No game was in progress.
    [one] Game {$games} was lost by forfeit.
   *[other] Games {$games} were lost by forfeit.
  }
tournament-entry = { $joined ->
    [yes] You are in {$name}
   *[other] You left {$name}
  } ({ $count ->
    [one] {$count} entrant
   *[other] {$count} entrants
  }).
tournament-error-direct = tournaments are held in a server: use this command in one
tournament-error-manage-server = only a member who can manage the server can create a tournament
tournament-error-not-organizer = only the tournament's organizer, or a member who can manage the server, can do that
tournament-error-limit = this server already has { $count ->
    [one] {$count} tournament
   *[other] {$count} tournaments
  } open or under way: finish or cancel one first
tournament-error-players = { $format ->
    [round_robin] a round robin takes 3 to {$max} players
   *[other] a Swiss takes 3 to {$max} players
  }
tournament-error-rounds-swiss = only a Swiss has rounds to set: a round robin plays every pair once
tournament-error-rounds = a Swiss has 1 to {$max} rounds
tournament-error-name = a tournament's name has 1 to {$max} characters
tournament-error-starts-in = a tournament starts within {$max}
tournament-error-not-found = there is no tournament #{$id} in this server
tournament-error-none-here = no tournament is open or under way in this server
tournament-error-which = say which tournament: {$list}
tournament-error-full = the tournament is full ({$max} entrants)
tournament-error-already-in = you are already in this tournament
tournament-error-not-in = you are not in this tournament
tournament-error-started = the tournament has started: entries are closed (to leave it, withdraw)
tournament-error-not-started = the tournament has not started yet (to leave it before the start, leave)
tournament-error-over = the tournament is over
tournament-error-too-few = a tournament needs 3 entrants or more to start, and has {$count}
tournament-error-withdrawn = you have already withdrawn from this tournament
tournament-error-round = there is no round {$round} yet
tournament-error-abort = a tournament game cannot be aborted: play it, or resign
tournament-error-wait = `{$text}` is not a time to wait: write it like 1d, 12h or 30m
tournament-winner = Congratulations, {$mention}!
button-join = Join
button-leave = Leave

## /tournament: its subcommands' names are joined to the command's in the ids
## (cmd-tournament-create-…).

-cmd-tournament = tournament
-opt-tournament = tournament
cmd-tournament-name = { -cmd-tournament }
cmd-tournament-description = Tournaments in this server: sign up, play, and see the standings
cmd-tournament-create-name = create
cmd-tournament-create-description = Create a tournament in this channel (Manage Server)
cmd-tournament-create-name-name = name
cmd-tournament-create-name-description = The tournament's name
cmd-tournament-create-format-name = format
cmd-tournament-create-format-description = round-robin: every pair plays once; swiss: rounds paired by score
cmd-tournament-create-format-round-robin = round-robin
cmd-tournament-create-format-swiss = swiss
cmd-tournament-create-size-name = { -opt-size }
cmd-tournament-create-size-description = Board size, columns x rows (default 8x8)
cmd-tournament-create-time-name = { -opt-time }
cmd-tournament-create-time-description = Time per move (default 1 day)
cmd-tournament-create-time-10-minutes = 10 minutes
cmd-tournament-create-time-1-hour = 1 hour
cmd-tournament-create-time-1-day = 1 day
cmd-tournament-create-time-3-days = 3 days
cmd-tournament-create-time-7-days = 7 days
cmd-tournament-create-rated-name = { -opt-rated }
cmd-tournament-create-rated-description = Rated games (default yes)
cmd-tournament-create-rounds-name = rounds
cmd-tournament-create-rounds-description = Swiss only: the number of rounds (default log2 of the players, plus 1)
cmd-tournament-create-max_players-name = max_players
cmd-tournament-create-max_players-description = The most players it takes (default 32 for a round robin, 128 for a Swiss)
cmd-tournament-create-starts_in-name = starts_in
cmd-tournament-create-starts_in-description = When it starts by itself, like 1d, 12h or 30m (default: when you start it)
cmd-tournament-join-name = join
cmd-tournament-join-description = Enter a tournament before it starts
cmd-tournament-join-tournament-name = { -opt-tournament }
cmd-tournament-join-tournament-description = Which tournament (default: the only one here)
cmd-tournament-leave-name = leave
cmd-tournament-leave-description = Leave a tournament before it starts
cmd-tournament-leave-tournament-name = { -opt-tournament }
cmd-tournament-leave-tournament-description = Which tournament (default: the only one here)
cmd-tournament-start-name = start
cmd-tournament-start-description = Start a tournament now (its organizer, or Manage Server)
cmd-tournament-start-tournament-name = { -opt-tournament }
cmd-tournament-start-tournament-description = Which tournament (default: the only one here)
cmd-tournament-standings-name = standings
cmd-tournament-standings-description = A tournament's standings
cmd-tournament-standings-tournament-name = { -opt-tournament }
cmd-tournament-standings-tournament-description = Which tournament (default: the only one here)
cmd-tournament-pairings-name = pairings
cmd-tournament-pairings-description = The games of a tournament's round
cmd-tournament-pairings-tournament-name = { -opt-tournament }
cmd-tournament-pairings-tournament-description = Which tournament (default: the only one here)
cmd-tournament-pairings-round-name = round
cmd-tournament-pairings-round-description = Which round (default: the one being played)
cmd-tournament-withdraw-name = withdraw
cmd-tournament-withdraw-description = Leave a running tournament: your games left are lost, those played stand
cmd-tournament-withdraw-tournament-name = { -opt-tournament }
cmd-tournament-withdraw-tournament-description = Which tournament (default: the only one here)
cmd-tournament-cancel-name = cancel
cmd-tournament-cancel-description = Cancel a tournament; its games under way go on as ordinary games (organizer, Manage Server)
cmd-tournament-cancel-tournament-name = { -opt-tournament }
cmd-tournament-cancel-tournament-description = Which tournament (default: the only one here)

## Puzzles

puzzle-title = Puzzle #{$id} (rating {$rating}): { $side ->
    [black] Black
   *[white] White
  } to move and win in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }.
puzzle-last-reply = The bot's last reply: {$reply}.
puzzle-resumed = You are solving this puzzle already, so here it is again: finish it before asking for another.
puzzle-answer-how = Answer with /move.
puzzle-right = {$played} is right. The bot replies {$reply}. { $side ->
    [black] Black
   *[white] White
  } to move and win in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }.
puzzle-solved = {$played} wins: puzzle #{$id} solved!
puzzle-failed = {$played} lets the win go: puzzle #{$id} failed.
puzzle-solution = The solution: {$line}
puzzle-rating-change = Puzzle rating: {$before} → {$after} ({$change})
puzzle-not-rated = Not rated: you tried this puzzle before.
puzzle-streak = Puzzles solved in a row: {$streak} (best {$best})
puzzle-card = {$name}'s puzzle rating: {$value} (deviation {$deviation}) · solved {$solved} of {$attempted} · streak {$streak} (best {$best})
puzzle-daily-title = Daily puzzle of {$day}
puzzle-daily-count = { $solved ->
    [one] {$solved} member solved today's puzzle
   *[other] {$solved} members solved today's puzzle
  }, out of {$tried} who tried.
puzzle-daily-next = The next daily puzzle comes {$at}.
puzzle-daily-busy = Finish the puzzle you are solving first, then ask for the daily puzzle again.
puzzle-daily-tried = { $solved ->
    [yes] You solved today's puzzle.
   *[no] You did not solve today's puzzle.
  }
puzzle-daily-post = { $side ->
    [black] Black
   *[white] White
  } to move and win in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }. Try it with /puzzle daily: nobody is told the answer before they have tried.
puzzle-error-none = there are no puzzles on {$size} yet
puzzle-error-no-size = there are no puzzles on {$size}; there are on {$sizes}
puzzle-error-no-puzzle = you are solving no puzzle: ask for one with /puzzle
puzzle-error-daily-direct = the daily puzzle belongs to a server: ask for it in one of its channels
puzzle-error-changed = another of your moves got to this puzzle first: see where it stands with /puzzle
console-value-daily = daily
console-bad-puzzle = `{$value}` is not a puzzle to ask for: write a board size like 6x6, or { console-value-daily }
console-bad-member = `{$value}` is not a member's name: a name has 1 to {$max} characters
console-no-member = there is no member called {$name} here: a member is one who has played, challenged or been challenged here
## Proven results in the engine's look back at a game (/analyze): what the prover established,
## counted in the winner's own moves as the rest of the analysis counts them.

analysis-proven = { $side ->
    [black] Black
   *[white] White
  } wins in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  } from here
analysis-missed = missed a win in { $moves ->
    [one] {$moves} move
   *[other] {$moves} moves
  }: {$win} wins
analysis-missed-title = Wins let go (proven by the engine):
analysis-missed-line = {$number}. {$move} by { $side ->
    [black] Black
   *[white] White
  }: {$missed}
analysis-file-proofs = proven results

## The /puzzle command

cmd-puzzle-name = puzzle
cmd-puzzle-description = A puzzle to solve, near your puzzle rating; or this server's daily puzzle
cmd-puzzle-size-name = { -opt-size }
cmd-puzzle-size-description = Board size (default 8x8), or daily: the server's puzzle of the day
cmd-puzzle-size-6x6 = 6x6
cmd-puzzle-size-7x7 = 7x7
cmd-puzzle-size-8x8 = 8x8
cmd-puzzle-size-daily = { console-value-daily }

## Vote games
team-started = Game #{$id}: {$team} plays { $side ->
    [black] Black
   *[white] White
  } against the AI (level {$level}), voting on each move. Vote with /{ -cmd-move } or the Move button; each window lasts { $window ->
    [minutes] 10 minutes
    [hour] 1 hour
   *[day] 1 day
  }, and the move with the most votes is played when it closes.
team-vote-counted = Your vote for {$move} in game #{$id} is counted.
team-vote-changed = Your vote in game #{$id} is now {$move}.
team-vote-count = {$move} ({$count})
team-vote-standing = Leading: {$leading} · { $voters ->
    [one] 1 voter
   *[other] {$voters} voters
  }.
team-window-closes = The window closes {$at}.
team-moved = {$team} plays {$move}, with {$votes} of { $voters ->
    [one] 1 vote
   *[other] {$voters} votes
  }.
team-window-extended = No one voted in {$team}'s window in game #{$id}: it is extended once, to {$until}. A second empty window loses the game.
team-credit = {$name} {$played} of {$votes}
team-credits = Game #{$id} is over. Votes played: {$credits}.
team-credits-none = Game #{$id} is over; no one voted in it.
team-error-direct = vote games are played in a server's channel, not in direct messages
team-error-window = a vote game's window is 10 minutes, 1 hour or 1 day
team-error-limit = this server already has {$count} vote games running; wait for one to end
team-error-channel-busy = this channel, or the one it would play, already plays a vote game; wait for it to end
team-error-no-game = no vote game is played in this channel
team-error-not-your-turn = in game #{$id} the other side is to move; vote when your channel's window opens
team-error-window-closed = the window of game #{$id} closed before your vote arrived, so it counts for nothing
team-error-other-side = you voted for the other side of game #{$id}; a member votes for one side only
board-team-vote = {$channel}, vote for your move with /{ -cmd-move } or the Move button. {$closes}

-cmd-team-game = team-game
-opt-window = window
cmd-team-game-name = { -cmd-team-game }
cmd-team-game-description = Start a vote game: this channel plays the AI or another channel, its members voting on each move
cmd-team-game-opponent-name = { -opt-opponent }
cmd-team-game-opponent-description = Another channel of this server to play; leave empty to play the AI
cmd-team-game-size-name = { -opt-size }
cmd-team-game-size-description = Board size, columns x rows (default 8x8)
cmd-team-game-color-name = { -opt-color }
cmd-team-game-color-description = The channel's side (default random)
cmd-team-game-color-black-moves-first = { cmd-challenge-color-black-moves-first }
cmd-team-game-color-white = { cmd-challenge-color-white }
cmd-team-game-color-random = { cmd-challenge-color-random }
cmd-team-game-level-name = { -opt-level }
cmd-team-game-level-description = The AI's strength: 1 beginner to 5 strong (default 3)
cmd-team-game-window-name = { -opt-window }
cmd-team-game-window-description = How long each vote lasts (default 1 hour)
cmd-team-game-window-10-minutes = { cmd-challenge-time-10-minutes }
cmd-team-game-window-1-hour = { cmd-challenge-time-1-hour }
cmd-team-game-window-1-day = { cmd-challenge-time-1-day }
team-started-channels = Game #{$id}: {$black} (Black) plays {$white} (White), each channel voting on its moves. Vote with /{ -cmd-move } or the Move button in your channel; each window lasts { $window ->
    [minutes] 10 minutes
    [hour] 1 hour
   *[day] 1 day
  }, and the move with the most votes is played when it closes. A member votes for one side only.
team-error-same-channel = a channel cannot play itself; choose another channel of this server, or leave the opponent out to play the AI
console-team-channels = the console has a single channel, so a vote game here plays the AI; games between channels are played on Discord
team-votes-so-far = { $count ->
    [one] 1 vote so far.
   *[other] {$count} votes so far.
  }
