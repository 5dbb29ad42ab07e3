//! `/puzzle [size]` and `/puzzle daily`, `/move` answering the member's puzzle, and the server's
//! public post of the daily puzzle. A member's puzzle is their own: every answer about it is
//! ephemeral, and the day's post never shows the answer.

use poise::serenity_prelude as serenity;
use serenity::{CreateEmbed, CreateEmbedFooter};
use tracing::warn;

use super::view::{Attached, View};
use super::{caller, place, private_lang, public_lang, BotError, Context};
use crate::game::{
    BoardStyle, DailyCount, DailyPuzzle, DailyYours, Games, Member, MemberId, PuzzleState,
    PuzzleStep,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::render;
use crate::rules::{BoardSize, Color, Move, Position};
use crate::text;

const COLOUR: u32 = 0x5b_8a_3c;
/// The longest description of an attachment Discord takes, in characters.
const ALT_MAX: usize = 1024;

/// What `/puzzle` asks for: a puzzle of one of the sizes the pool has, or the server's daily one.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Ask {
    #[name = "6x6"]
    Six,
    #[name = "7x7"]
    Seven,
    #[name = "8x8"]
    Eight,
    #[name = "daily"]
    Daily,
}

impl Ask {
    /// The board size asked for; none for the daily puzzle.
    fn size(self) -> Option<BoardSize> {
        let (cols, rows) = match self {
            Ask::Six => (6, 6),
            Ask::Seven => (7, 7),
            Ask::Eight => (8, 8),
            Ask::Daily => return None,
        };
        BoardSize::new(cols, rows).ok()
    }
}

/// A puzzle to solve, near your puzzle rating; or this server's daily puzzle
#[poise::command(slash_command)]
pub async fn puzzle(
    ctx: Context<'_>,
    #[description = "Board size (default 8x8), or daily: the server's puzzle of the day"]
    size: Option<Ask>,
) -> Result<(), BotError> {
    let who = caller(ctx).await;
    if let Some(Ask::Daily) = size {
        return daily(ctx, &who).await;
    }
    let games = &ctx.data().games;
    let view = games
        .puzzle(&who, place(ctx), size.and_then(Ask::size))
        .await?;
    let lang = private_lang(ctx);
    let style = own_style(ctx, who.id).await;
    let v = board(
        lang,
        Board {
            position: &view.position,
            last: view.last,
            attacker: view.attacker,
        },
        style,
        text::puzzle_view(lang, &view),
    );
    ctx.send(v.reply(true)).await?;
    Ok(())
}

/// `/puzzle daily`: the member's side of it for them alone (the puzzle, the one to finish first,
/// or their result and the solution), then the server's post of the day: made once, its count
/// brought up to date after.
async fn daily(ctx: Context<'_>, who: &Member) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let daily = games.puzzle_daily(who, place(ctx)).await?;
    let lang = private_lang(ctx);
    let shown = match &daily.yours {
        DailyYours::Playing(view) | DailyYours::Busy(view) => Board {
            position: &view.position,
            last: view.last,
            attacker: view.attacker,
        },
        DailyYours::Tried { end, line, .. } => Board {
            position: end,
            last: line.last().copied(),
            attacker: daily.attacker,
        },
    };
    let style = own_style(ctx, who.id).await;
    let v = board(lang, shown, style, text::daily_puzzle(lang, &daily));
    ctx.send(v.reply(true)).await?;
    daily_post(ctx, &daily).await;
    Ok(())
}

/// The server's post of the day in this channel, made the first time anyone asks for it that
/// day (and recorded); each attempt that ends brings its count up to date after. A failure
/// costs only the post: it is logged.
async fn daily_post(ctx: Context<'_>, daily: &DailyPuzzle) {
    if daily.count.post.is_some() {
        return;
    }
    let games = &ctx.data().games;
    let lang = public_lang(ctx);
    let count = text::daily_count(lang, &daily.count);
    let post = text::daily_post(lang, daily);
    // The count is the post's content, which each attempt replaces; the rest stays in the embed.
    let head = post.strip_suffix(&count).unwrap_or(&post).trim_end();
    let style = games.board_style(place(ctx), None).await;
    let start = Board {
        position: &daily.start,
        last: None,
        attacker: daily.attacker,
    };
    let v = board(lang, start, style, count);
    let mut v = View {
        embed: v.embed.map(|e| e.title(head.to_string())),
        ..v
    };
    v.mentions.clear();
    match ctx.channel_id().send_message(ctx.http(), v.message()).await {
        Ok(message) => {
            let here = place(ctx);
            let recorded = games
                .set_daily_post(here.guild, daily.count.day, here.channel, message.id.get())
                .await;
            if let Err(e) = recorded {
                warn!(error = ?e, "could not record the daily puzzle's post");
            }
        }
        Err(e) => warn!(error = %e, "could not post the daily puzzle"),
    }
}

/// Replaces the count on the day's post, if there is one.
async fn edit_count(ctx: Context<'_>, lang: Lang, count: &DailyCount) {
    let Some((channel, message)) = count.post else {
        return;
    };
    let edit = serenity::EditMessage::new().content(text::daily_count(lang, count));
    let edited = serenity::ChannelId::new(channel.get())
        .edit_message(ctx.http(), serenity::MessageId::new(message), edit)
        .await;
    if let Err(e) = edited {
        warn!(error = %e, "could not update the daily puzzle's count");
    }
}

/// The answer to a `/move` in the member's puzzle, for them alone: the board after the bot's
/// reply, after the win, or at the end of the winning line when the move was wrong. `late`: the
/// response was deferred, so the answer completes it. A finished daily puzzle's count goes to
/// the day's post.
pub(super) async fn answer_move(
    ctx: Context<'_>,
    step: &PuzzleStep,
    late: bool,
) -> Result<(), BotError> {
    let lang = private_lang(ctx);
    let last = match &step.state {
        PuzzleState::Failed { line, .. } => line.last().copied(),
        _ => step.reply.or(Some(step.played)),
    };
    let shown = Board {
        position: &step.position,
        last,
        attacker: step.attacker,
    };
    let style = own_style(ctx, super::member_id(ctx.author().id)).await;
    let v = board(lang, shown, style, text::puzzle_step(lang, step));
    match ctx {
        poise::Context::Application(app) if late => {
            app.interaction
                .edit_response(ctx.serenity_context(), v.edit())
                .await?;
        }
        _ => {
            ctx.send(v.reply(true)).await?;
        }
    }
    if let PuzzleState::Solved(result) | PuzzleState::Failed { result, .. } = &step.state {
        if let Some(count) = &result.daily {
            edit_count(ctx, public_lang(ctx), count).await;
        }
    }
    Ok(())
}

/// The legal moves of `who`'s puzzle in progress starting with `partial` (case and separators
/// ignored), at most `limit`; none when they are solving none.
pub(super) async fn legal_moves(
    games: &Games,
    who: MemberId,
    partial: &str,
    limit: usize,
) -> Vec<String> {
    let view = match games.puzzle_in_progress(who).await {
        Ok(Some(view)) => view,
        Ok(None) => return Vec::new(),
        Err(e) => {
            warn!(error = ?e, "could not read a member's puzzle");
            return Vec::new();
        }
    };
    let wanted = squares(partial);
    view.position
        .legal_moves()
        .iter()
        .map(Move::to_string)
        .filter(|m| squares(m).starts_with(&wanted))
        .take(limit)
        .collect()
}

/// A move's squares alone, in lowercase: `E7-E6` and `e7e6` alike.
fn squares(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The look of what only `member` sees: their own choice.
async fn own_style(ctx: Context<'_>, member: MemberId) -> BoardStyle {
    ctx.data().games.board_style(place(ctx), Some(member)).await
}

/// A puzzle's board as it is shown: the attacker (the side solving) at the bottom, the last move
/// marked.
#[derive(Clone, Copy)]
struct Board<'a> {
    position: &'a Position,
    last: Option<Move>,
    attacker: Color,
}

/// `words` with the board in an embed, drawn in `style`: a picture, or emoji when it is chosen
/// or the picture cannot be drawn.
fn board(lang: Lang, b: Board<'_>, style: BoardStyle, words: String) -> View {
    let picture = match style {
        BoardStyle::Image => picture(lang, b, &words),
        BoardStyle::Emoji => None,
    };
    let embed = CreateEmbed::new().colour(COLOUR);
    let embed = match &picture {
        Some(p) => embed.image(p.url()),
        None => embed
            .description(render::emoji_board_facing(b.position, b.last, b.attacker))
            .footer(CreateEmbedFooter::new(text::board_legend(lang))),
    };
    View {
        content: Some(words),
        embed: Some(embed),
        files: picture.into_iter().collect(),
        ..View::default()
    }
}

/// The board as a PNG picture, its alt text the first line of `words` and the board in text;
/// `None` (logged) when it cannot be drawn.
fn picture(lang: Lang, b: Board<'_>, words: &str) -> Option<Attached> {
    match render::board_png(b.position, b.last, b.attacker) {
        Ok(bytes) => {
            let mut alt = words.lines().next().unwrap_or_default().to_string();
            alt.push('\n');
            alt.push_str(&render::text_board_facing(b.position, b.last, b.attacker));
            alt.push('\n');
            alt.push_str(&tr!(lang, "alt-key"));
            Some(Attached {
                name: "board.png",
                bytes,
                alt: alt.chars().take(ALT_MAX).collect(),
            })
        }
        Err(e) => {
            tracing::error!(error = %e, "could not draw a puzzle's board; showing emoji");
            None
        }
    }
}
