//! `/puzzle [size]` and `/puzzle daily`, `/move` answering the member's puzzle, and the server's
//! public post of the daily puzzle. A member's puzzle is their own: every answer about it is
//! ephemeral, and the day's post never shows the answer.

use crate::discord::views::Audience;
use poise::serenity_prelude as serenity;
use tracing::warn;

use crate::discord::reply::own_style;
use crate::discord::views::menu::{move_button, Menu};
use crate::discord::views::puzzle::{board, Board};
use crate::discord::views::{Markdown, View};
use crate::discord::{caller, ids, place, private_lang, public_lang, BotError, Context};
use crate::game::{DailyPuzzle, DailyYours, Member, PuzzleView};
use crate::i18n::Lang;
use crate::rules::BoardSize;
use crate::text;

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
        .puzzles
        .puzzle(&who, place(ctx), size.and_then(Ask::size))
        .await?;
    let lang = private_lang(ctx);
    let style = own_style(ctx, who.id).await;
    let mut v = board(
        lang,
        Board {
            position: &view.position,
            last: view.last,
            attacker: view.attacker,
        },
        style,
        text::puzzle_view(lang, &view),
    );
    v.components = vec![answer_button(lang, &view)];
    ctx.send(v.reply(Audience::Caller)).await?;
    Ok(())
}

/// The Move button of the puzzle `view` shows, waiting for the member's move.
fn answer_button(lang: Lang, view: &PuzzleView) -> serenity::CreateActionRow {
    move_button(
        lang,
        Menu::Puzzle {
            puzzle: view.id,
            left: view.moves_left,
        },
    )
}

/// `/puzzle daily`: the member's side of it for them alone (the puzzle, the one to finish first,
/// or their result and the solution), then the server's post of the day: made once, its count
/// brought up to date after.
async fn daily(ctx: Context<'_>, who: &Member) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let daily = games.puzzles.puzzle_daily(who, place(ctx)).await?;
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
    let said = text::daily_puzzle(lang, &Markdown, &daily, games.now());
    let mut v = board(lang, shown, style, said);
    if let DailyYours::Playing(view) | DailyYours::Busy(view) = &daily.yours {
        v.components = vec![answer_button(lang, view)];
    }
    ctx.send(v.reply(Audience::Caller)).await?;
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
    let style = games.settings.board_style(place(ctx), None).await;
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
                .puzzles
                .set_daily_post(
                    here.guild,
                    daily.count.day,
                    here.channel,
                    ids::message_id(message.id),
                )
                .await;
            if let Err(e) = recorded {
                warn!(error = ?e, "could not record the daily puzzle's post");
            }
        }
        Err(e) => warn!(error = %e, "could not post the daily puzzle"),
    }
}
