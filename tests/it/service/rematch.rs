//! Rematches: colours swapped, terms kept, offered once, within a challenge's limits, and
//! against the AI.

use breakthrough_bot::engine::Level;
use breakthrough_bot::game::{
    AccessRefusal, ChallengeRef, ChallengeRefusal, GameRef, Limits, Place, TimeControl,
};
use breakthrough_bot::rules::Color;

use super::{
    ai_request, alice, bob, carol, play_all, request, started, the_ai, world, world_with,
    BLACK_WINS, PLACE,
};
use crate::common::db::Backend;

/// A rematch is the same game again with the colours swapped: a challenge to the other player,
/// offered once, whoever asks and however often.
pub(super) async fn a_rematch_swaps_colours_keeps_the_terms_and_is_offered_once(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let w = world(b).await;
    let id = started(&w).await;
    // Not before the game is over, and only by its players.
    let early = w
        .games
        .challenges
        .rematch(&bob(), PLACE, GameRef::Id(id))
        .await;
    assert!(
        early
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, ChallengeRefusal::RematchTooEarly(g) if g == id)),
        "{early:?}"
    );
    play_all(&w, id, &BLACK_WINS).await;
    let onlooker = w
        .games
        .challenges
        .rematch(&carol(), PLACE, GameRef::Id(id))
        .await;
    assert!(
        onlooker
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, AccessRefusal::NotAPlayer(g) if g == id)),
        "{onlooker:?}"
    );
    let elsewhere = Place::new(11, 21);
    let hidden = w
        .games
        .challenges
        .rematch(&bob(), elsewhere, GameRef::Id(id))
        .await;
    assert!(
        hidden
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, AccessRefusal::NoSuchGame(g) if g == id)),
        "{hidden:?}"
    );

    // Both players press at once: one rematch.
    let (alice, bob) = (alice(), bob());
    let (a, b) = tokio::join!(
        w.games.challenges.rematch(&alice, PLACE, GameRef::Id(id)),
        w.games.challenges.rematch(&bob, PLACE, GameRef::Only),
    );
    let (made, refused) = match (a, b) {
        (Ok(Rematch::Challenge(c)), Err(e)) | (Err(e), Ok(Rematch::Challenge(c))) => (c, e),
        other => panic!("not one rematch: {other:?}"),
    };
    assert!(
        crate::is_refusal!(refused, ChallengeRefusal::RematchTaken(g) if g == id),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        format!("the rematch of game #{id} has already been offered")
    );
    let (asker, other) = if made.challenger.id == alice.clone().id {
        (alice.clone(), bob.clone())
    } else {
        (bob.clone(), alice.clone())
    };
    assert_eq!(made.opponent.as_ref().map(|m| m.id), Some(other.id));
    // alice had Black: whoever asked, she has White now.
    let asker_color = if asker.id == alice.clone().id {
        Color::White
    } else {
        Color::Black
    };
    assert_eq!(made.color, Some(asker_color));
    assert_eq!(
        (made.size, made.time, made.rated, made.place),
        ("3x5".parse().unwrap(), TimeControl::OneHour, true, PLACE)
    );
    // It is a challenge like any other: accepted, it is a game with the colours swapped.
    let again = w
        .games
        .challenges
        .accept(&other, ChallengeRef::Id(made.place, made.id))
        .await
        .unwrap()
        .game;
    assert_eq!(
        (again.players.black.id, again.players.white.id),
        (bob.clone().id, alice.clone().id)
    );
    // A third press, once the rematch is under way, offers nothing more.
    let late = w
        .games
        .challenges
        .rematch(&alice.clone(), PLACE, GameRef::Id(id))
        .await;
    assert!(
        late.as_ref()
            .is_err_and(|e| crate::is_refusal!(e, ChallengeRefusal::RematchTaken(_))),
        "{late:?}"
    );
}

/// Every limit on challenges holds for a rematch, and its refusal says which; a refused rematch
/// is not spent.
pub(super) async fn a_rematch_meets_every_limit_of_a_challenge(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let limits = Limits {
        pending_challenges: 1,
        ..Limits::default()
    };
    let w = world_with(b, limits).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;
    // alice has a challenge out already: a rematch would be her second.
    let out = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    let refused = w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Id(id))
        .await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, ChallengeRefusal::TooManyChallenges(1))),
        "{refused:?}"
    );
    w.games
        .challenges
        .cancel(&alice(), ChallengeRef::Id(out.place, out.id))
        .await
        .unwrap();
    let made = w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Id(id))
        .await
        .unwrap();
    let Rematch::Challenge(c) = made else {
        panic!("a challenge: {made:?}")
    };
    // bob declines it; a new challenge from alice meets the hour a decline asks for.
    w.games
        .challenges
        .decline(&bob(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    let refused = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await;
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, ChallengeRefusal::Declined { .. })),
        "{refused:?}"
    );
}

/// Against the AI a rematch is the new game at once: same level, colours swapped, once.
pub(super) async fn a_rematch_against_the_ai_starts_the_game_at_once(b: Backend) {
    use breakthrough_bot::game::Rematch;
    let w = world(b).await;
    let g = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "3x5"))
        .await
        .unwrap();
    w.games
        .play
        .resign(&alice(), PLACE, GameRef::Id(g.id))
        .await
        .unwrap();
    let again = w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Only)
        .await
        .unwrap();
    let Rematch::AiGame(game, slot) = again else {
        panic!("a game: {again:?}")
    };
    // alice had Black: now the AI has it, and opens, with its place in the queue.
    assert_eq!(
        (game.players.white.id, game.players.black.id),
        (alice().id, the_ai().id)
    );
    assert_eq!(
        game.ai.map(|a| (a.color, a.level)),
        Some((Color::Black, Level::new(1).unwrap()))
    );
    assert!(game.is_active() && game.ai_to_move());
    let slot = slot.expect("the AI's place in the queue");
    assert!(w.games.play.ai_reply_with(slot).await.unwrap().is_some());
    let twice = w
        .games
        .challenges
        .rematch(&alice(), PLACE, GameRef::Id(g.id))
        .await;
    assert!(
        twice
            .as_ref()
            .is_err_and(|e| crate::is_refusal!(e, ChallengeRefusal::RematchTaken(_))),
        "{twice:?}"
    );
}
