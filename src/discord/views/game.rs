//! How a game looks: its board with players, turn and time, the board after the AI's move, a
//! challenge, the resign confirmation, the leaderboard, and the outbox's announcements.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateButton, CreateEmbed, CreateEmbedFooter};

use crate::game::{
    Announced, BoardStyle, Challenge, ChallengeState, Game, History, Leaderboard, Listed, Member,
    MemberId, MessageId, Place, Played, Timestamp,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::render;
use crate::rules::Color;
use crate::text::{self, Markup};

use super::super::button::Button;
use super::menu::{move_button, Menu};
use super::tournament;
use super::{mention, Attached, Markdown, View};

const BLACK_COLOUR: u32 = 0x2b_2d_31;
const WHITE_COLOUR: u32 = 0xe6_e6_e6;
const END_COLOUR: u32 = 0xc9_a2_27;

/// A game's board with its players, turn, move number and time left, or its result; the board
/// drawn in `style`.
pub fn game(lang: Lang, game: &Game, now: Timestamp, style: BoardStyle) -> View {
    game_facing(lang, game, now, Color::White, style)
}

/// [`game`] with `bottom`'s pieces at the bottom of the board: a player's own view.
pub fn game_facing(
    lang: Lang,
    game: &Game,
    now: Timestamp,
    bottom: Color,
    style: BoardStyle,
) -> View {
    let picture = match style {
        BoardStyle::Image => picture(lang, game, now, bottom),
        BoardStyle::Emoji => None,
    };
    let mut embed = CreateEmbed::new().title(text::title(lang, game));
    embed = match &picture {
        Some(picture) => embed.image(picture.url()),
        None => embed
            .description(render::emoji_board_facing(
                &game.position,
                game.last_move,
                bottom,
            ))
            .footer(CreateEmbedFooter::new(text::board_legend(lang))),
    };
    embed = embed
        .field(
            tr!(lang, "board-black", piece = render::BLACK_PIECE),
            player(game, Color::Black),
            true,
        )
        .field(
            tr!(lang, "board-white", piece = render::WHITE_PIECE),
            player(game, Color::White),
            true,
        );
    if let Some(mv) = game.last_move {
        embed = embed.field(tr!(lang, "board-last-move"), mv.to_string(), true);
    }
    embed = embed.field(
        if game.is_active() {
            tr!(lang, "board-to-play")
        } else {
            tr!(lang, "board-result")
        },
        text::status(lang, &Markdown, game, now),
        false,
    );
    if let Some(change) = &game.status.rating_change() {
        embed = embed.field(
            tr!(lang, "board-ratings"),
            text::rating_lines(&Markdown, game, change).join("\n"),
            false,
        );
    }
    let colour = match (game.is_active(), game.position.turn()) {
        (true, Color::Black) => BLACK_COLOUR,
        (true, Color::White) => WHITE_COLOUR,
        (false, _) => END_COLOUR,
    };
    let (content, ping) = if game.team_to_move() {
        // A channel's move is voted on: the channel is told, and no one is pinged.
        (team_call(lang, game, now, 0), None)
    } else if game.is_active() {
        let id = game.to_move().id;
        (
            tr!(lang, "board-your-move", mention = mention(id)),
            Some(id),
        )
    } else {
        (text::status(lang, &Markdown, game, now), None)
    };
    // In play, the member to move plays by taps from it; once a game is over, either player
    // may ask to play it again.
    let components = if game.ai_to_move() {
        Vec::new()
    } else if game.is_active() {
        let menu = Menu::Game {
            game: game.id,
            ply: game.ply,
        };
        vec![move_button(lang, menu)]
    } else {
        vec![CreateActionRow::Buttons(vec![CreateButton::new(
            Button::Rematch(game.id).to_string(),
        )
        .label(tr!(lang, "button-rematch"))
        .style(ButtonStyle::Primary)])]
    };
    View {
        content: Some(content),
        embed: Some(embed.colour(colour)),
        components,
        mentions: ping.into_iter().collect(),
        files: picture.into_iter().collect(),
    }
}

/// What a vote game's board says while a channel votes: who votes, how many have so far
/// (`voters`), and when the window closes.
pub fn team_call(lang: Lang, game: &Game, now: Timestamp, voters: u32) -> String {
    let closes = game.status.deadline().map_or_else(String::new, |d| {
        tr!(
            lang,
            "team-window-closes",
            at = Markdown.within(lang, now, d)
        )
    });
    let call = tr!(
        lang,
        "board-team-vote",
        channel = player(game, game.position.turn()),
        closes = closes
    );
    if voters == 0 {
        call
    } else {
        format!("{call} {}", tr!(lang, "team-votes-so-far", count = voters))
    }
}

/// A player as the board names them: a member by mention, the channel of a vote game as the
/// channel.
fn player(game: &Game, color: Color) -> String {
    match game.team(color) {
        Some(channel) => format!("<#{channel}>"),
        None => mention(game.players[color].id),
    }
}

/// The board as a PNG picture with its alt text; `None` (logged) when it cannot be drawn, for the
/// emoji board instead.
fn picture(lang: Lang, game: &Game, now: Timestamp, bottom: Color) -> Option<Attached> {
    match render::board_png(&game.position, game.last_move, bottom) {
        Ok(bytes) => Some(Attached {
            name: "board.png",
            bytes,
            alt: text::board_alt(lang, game, bottom, now),
        }),
        Err(e) => {
            tracing::error!(game = %game.id, error = %e, "could not draw a board; showing emoji");
            None
        }
    }
}

/// A game's replay as an animated GIF, one frame per ply, from the start as everyone sees it;
/// `None` (logged) when it cannot be drawn. Some tens of milliseconds: call it off the async
/// runtime.
pub fn replay(lang: Lang, history: &History) -> Option<Attached> {
    let game = &history.game;
    let (start, moves) = match history.start_and_moves() {
        Ok(replayed) => replayed,
        Err(e) => {
            tracing::error!(game = %game.id, error = %e, "could not replay a game");
            return None;
        }
    };
    match render::replay_gif(&start, &moves, Color::White) {
        Ok(bytes) => Some(Attached {
            name: "replay.gif",
            bytes,
            alt: tr!(
                lang,
                "alt-replay",
                id = game.id.to_string(),
                plies = moves.len()
            ),
        }),
        Err(e) => {
            tracing::error!(game = %game.id, error = %e, "could not draw a replay");
            None
        }
    }
}

/// The board after the AI's move, saying which move it played.
pub fn ai_move(lang: Lang, played: &Played, now: Timestamp, style: BoardStyle) -> View {
    let mut v = game(lang, &played.game, now, style);
    let said = text::ai_played(lang, played);
    v.content = Some(match v.content {
        Some(c) if played.game.is_active() => format!("{c} {said}"),
        Some(c) => format!("{said} {c}"),
        None => said,
    });
    v
}

/// An announcement from the outbox, as a channel message; `None` for a thread to open, which is
/// no message.
pub fn announcement(lang: Lang, a: &Announced, now: Timestamp, style: BoardStyle) -> Option<View> {
    Some(match a {
        Announced::OpenThread { .. } => return None,
        Announced::ThreadEnded(g) => View::text(text::thread_ended(lang, &Markdown, g, now)),
        Announced::TournamentRound(round) => tournament::round_news(lang, round, now),
        Announced::TournamentGames {
            round,
            member,
            lang,
        } => tournament::embedded(text::your_games(*lang, &Markdown, round, *member, now)),
        Announced::TournamentEnded(table) => tournament::final_standings(lang, table),
        Announced::TournamentCancelled(t) => View::text(text::tournament_cancelled(
            lang,
            t,
            text::CancelledBy::TooFewEntrants,
        )),
        Announced::ChallengeExpired(c) => challenge(lang, c, now),
        Announced::TimedOut(g) | Announced::Board(g) => game(lang, g, now, style),
        Announced::Reminder { game, member } => View {
            content: Some(format!(
                "{}, {}",
                mention(*member),
                text::reminder(lang, &Markdown, game, now)
            )),
            mentions: vec![*member],
            ..View::default()
        },
        Announced::AiMoved(played) => ai_move(lang, played, now, style),
        Announced::TeamMoved {
            game: g,
            ply,
            mv,
            votes,
            voters,
        } => {
            let said = text::team_moved(lang, &Markdown, g, *ply, mv, *votes, *voters);
            game(lang, g, now, style).said_above(said)
        }
        Announced::TeamWindowExtended { game, until } => {
            View::text(text::window_extended(lang, &Markdown, game, *until))
        }
        Announced::TeamGameStarted(g) => {
            game(lang, g, now, style).said_above(text::team_game_started(lang, &Markdown, g))
        }
        Announced::TeamCredits { game: g, credits } => {
            game(lang, g, now, style).said_below(text::team_credits(lang, &Markdown, g, credits))
        }
        Announced::YourTurn {
            game,
            member,
            reminder,
            lang,
            message,
        } => turn_dm(*lang, game, *member, *reminder, *message, now, style),
        Announced::Vacation {
            game,
            member,
            until,
        } => {
            let opponent = game.color_of(*member).map(|c| game.player(c.opposite()).id);
            let said = text::vacation_told(lang, &Markdown, game, *member, *until);
            View {
                content: Some(match opponent {
                    Some(id) => format!("{}, {said}", mention(id)),
                    None => said,
                }),
                mentions: opponent.into_iter().collect(),
                ..View::default()
            }
        }
    })
}

/// A turn told by direct message: what happened, the time left and a link to the game's
/// message (its channel when no message is known), with the board from the member's side.
pub fn turn_dm(
    lang: Lang,
    game: &Game,
    member: MemberId,
    reminder: bool,
    message: Option<MessageId>,
    now: Timestamp,
    style: BoardStyle,
) -> View {
    let bottom = game.color_of(member).unwrap_or(Color::White);
    let mut v = game_facing(lang, game, now, bottom, style);
    let link = game_link(game.place, message);
    v.content = Some(format!(
        "{}\n{}",
        text::your_turn(lang, &Markdown, game, member, reminder, now),
        tr!(lang, "dm-go-to-game", link = link)
    ));
    v.mentions.clear();
    v
}

/// The address of a game's message (or of its channel, with no message known).
pub fn game_link(place: Place, message: Option<MessageId>) -> String {
    let server = if place.is_direct() {
        "@me".to_string()
    } else {
        place.guild.to_string()
    };
    match message {
        Some(m) => format!(
            "https://discord.com/channels/{server}/{}/{m}",
            place.channel
        ),
        None => format!("https://discord.com/channels/{server}/{}", place.channel),
    }
}

/// A member's own list of their games in progress, in every server: where it is their turn
/// first, soonest deadline first, each with when its time runs out and a link to its board;
/// then the others, as their status stands.
pub fn own_games(lang: Lang, member: &Member, listed: &[Listed], now: Timestamp) -> View {
    let line = |l: &Listed, standing: String| {
        let g = &l.game;
        let opponent = g.player(g.color_of(member.id).unwrap_or(Color::White).opposite());
        format!(
            "{} · {} · {standing} · [{}]({})",
            text::game_against(lang, &Markdown, g.id, &opponent.name),
            g.size,
            tr!(lang, "games-board"),
            game_link(g.place, l.message)
        )
    };
    let (mine, theirs): (Vec<&Listed>, Vec<&Listed>) = listed
        .iter()
        .partition(|l| l.game.to_move().id == member.id);
    let mut parts = Vec::new();
    if !mine.is_empty() {
        let lines: Vec<String> = mine
            .iter()
            .map(|l| {
                let deadline = l.game.status.deadline().unwrap_or(now);
                line(l, Markdown.time_left(lang, now, deadline))
            })
            .collect();
        parts.push(format!(
            "{}\n{}",
            Markdown.strong(&tr!(lang, "games-your-move")),
            lines.join("\n")
        ));
    }
    if !theirs.is_empty() {
        let lines: Vec<String> = theirs
            .iter()
            .map(|l| line(l, text::status(lang, &Markdown, &l.game, now)))
            .collect();
        parts.push(format!(
            "{}\n{}",
            Markdown.strong(&tr!(lang, "games-waiting")),
            lines.join("\n")
        ));
    }
    let description = if parts.is_empty() {
        tr!(lang, "games-own-none")
    } else {
        parts.join("\n\n")
    };
    View {
        embed: Some(
            CreateEmbed::new()
                .title(tr!(lang, "games-own-title"))
                .description(description),
        ),
        ..View::default()
    }
}

/// A challenge with its Accept / Decline / Cancel buttons while it is pending.
pub fn challenge(lang: Lang, c: &Challenge, now: Timestamp) -> View {
    let challenger = Markdown.name(&c.challenger.name);
    let embed = CreateEmbed::new()
        .title(tr!(lang, "challenge-title", id = c.id.to_string()))
        .description(text::challenge(lang, &Markdown, c, now))
        .colour(END_COLOUR);
    let mut components = Vec::new();
    if c.state == ChallengeState::Pending {
        let mut buttons = vec![CreateButton::new(Button::Accept(c.id).to_string())
            .label(tr!(lang, "button-accept"))
            .style(ButtonStyle::Success)];
        if c.opponent.is_some() {
            buttons.push(
                CreateButton::new(Button::Decline(c.id).to_string())
                    .label(tr!(lang, "button-decline"))
                    .style(ButtonStyle::Danger),
            );
        }
        buttons.push(
            CreateButton::new(Button::Cancel(c.id).to_string())
                .label(tr!(lang, "button-cancel"))
                .style(ButtonStyle::Secondary),
        );
        components.push(CreateActionRow::Buttons(buttons));
    }
    let (content, ping) = match (&c.opponent, c.state) {
        (Some(o), ChallengeState::Pending) => (
            tr!(
                lang,
                "challenge-to-you",
                mention = mention(o.id),
                challenger = challenger
            ),
            Some(o.id),
        ),
        (None, ChallengeState::Pending) => (
            tr!(lang, "challenge-to-anyone", challenger = challenger),
            None,
        ),
        (_, state) => (
            tr!(
                lang,
                "challenge-closed",
                id = c.id.to_string(),
                state = text::challenge_state(lang, state)
            ),
            None,
        ),
    };
    View {
        content: Some(content),
        embed: Some(embed),
        components,
        mentions: ping.into_iter().collect(),
        files: Vec::new(),
    }
}

/// The ephemeral question before resigning.
pub fn confirm_resign(lang: Lang, game: &Game) -> View {
    View {
        content: Some(tr!(lang, "resign-confirm", id = game.id.to_string())),
        embed: None,
        components: vec![CreateActionRow::Buttons(vec![
            CreateButton::new(Button::Resign(game.id).to_string())
                .label(tr!(lang, "button-resign"))
                .style(ButtonStyle::Danger),
            CreateButton::new(Button::KeepPlaying(game.id).to_string())
                .label(tr!(lang, "button-keep-playing"))
                .style(ButtonStyle::Secondary),
        ])],
        mentions: Vec::new(),
        files: Vec::new(),
    }
}

/// A leaderboard page with Previous / Next buttons.
pub fn leaderboard(lang: Lang, board: &Leaderboard) -> View {
    let embed = CreateEmbed::new()
        .title(tr!(
            lang,
            "leaderboard-embed-title",
            size = board.size.to_string()
        ))
        .description(text::leaderboard(lang, &Markdown, board))
        .colour(END_COLOUR);
    let button = |label: &str, page: usize, disabled: bool| {
        CreateButton::new(
            Button::Leaderboard {
                size: board.size,
                page,
            }
            .to_string(),
        )
        .label(label)
        .style(ButtonStyle::Secondary)
        .disabled(disabled)
    };
    View {
        content: None,
        embed: Some(embed),
        components: vec![CreateActionRow::Buttons(vec![
            button(
                &tr!(lang, "button-previous"),
                board.page.saturating_sub(1).max(1),
                board.page <= 1,
            ),
            button(
                &tr!(lang, "button-next"),
                board.page + 1,
                board.page >= board.pages,
            ),
        ])],
        mentions: Vec::new(),
        files: Vec::new(),
    }
}
