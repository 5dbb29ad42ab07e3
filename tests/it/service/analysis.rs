//! `/analyze`: who may analyse which game and when, and one analysis per member in the AI's
//! queue.

use breakthrough_bot::game::{
    AccessRefusal, GameId, GameRef, Limits, QueueRefusal, StandingsRefusal,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::Color;
use breakthrough_bot::text::{Plain, Refusal};

use super::{
    ai_request, alice, bob, carol, play_all, refused, started, world, world_with, World, A_DM,
    BLACK_WINS, NEXT_CHANNEL, OTHER_SERVER, PLACE,
};
use crate::common::db::Backend;

/// alice's game against the AI (level 1) on 3x5 with Black, after her first move and its reply.
async fn small_ai_game_under_way(w: &World) -> GameId {
    let id = w
        .games
        .challenges
        .challenge_ai(ai_request(PLACE, Some(Color::Black), "3x5"))
        .await
        .unwrap()
        .id;
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .ai_reply(id)
        .await
        .unwrap()
        .expect("the AI answers");
    id
}

pub(super) async fn a_finished_game_between_members_is_analysed_by_anyone_in_its_server(
    b: Backend,
) {
    use breakthrough_bot::engine::analysis::Eval;
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS).await;

    let done = w
        .games
        .standings
        .analyze(carol().id, NEXT_CHANNEL, id)
        .await
        .unwrap();
    assert_eq!(done.game.id, id);
    let plies = &done.analysis.plies;
    let played: Vec<String> = plies.iter().map(|p| p.played.to_string()).collect();
    assert_eq!(played, BLACK_WINS);
    assert_eq!(plies[4].after, Eval::Wins(0));
    let decided = done.analysis.decided.expect("the end is proven");
    assert_eq!(decided.winner, Color::Black);

    let summary = breakthrough_bot::text::analysis::summary(Lang::En, &Plain, &done);
    assert!(
        summary.starts_with("alice (Black) against bob (White) · 3x5 · 3 moves"),
        "{summary}"
    );
    assert!(summary.contains("Black wins in"), "{summary}");
    let file = breakthrough_bot::text::analysis::export(Lang::En, &done);
    let lines: Vec<&str> = file.lines().filter(|l| l.contains(" · ")).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("5 · Black · b2xa1 · wins in 1 → won · ")),
        "{file}"
    );
    // Another server, or a direct message, does not see it.
    for at in [OTHER_SERVER, A_DM] {
        refused!(
            w.games.standings.analyze(carol().id, at, id).await,
            AccessRefusal::NoSuchGame(g) if g == id
        );
    }
    refused!(
        w.games
            .standings
            .analyze(carol().id, PLACE, GameId::new(999))
            .await,
        AccessRefusal::NoSuchGame(_)
    );
}

pub(super) async fn a_game_between_members_in_progress_is_not_analysed_and_nothing_changes(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &BLACK_WINS[..2]).await;
    for who in [alice(), bob(), carol()] {
        let refusal = w
            .games
            .standings
            .analyze(who.id, PLACE, id)
            .await
            .unwrap_err();
        assert!(
            crate::is_refusal!(refusal, StandingsRefusal::AnalysisInProgress(g) if g == id),
            "{refusal:?}"
        );
        assert_eq!(
            refusal.to_string(),
            format!(
                "game #{id} is still being played: a game between members can be analysed once it is over, so that the engine helps no one during play"
            )
        );
    }
    assert!(StandingsRefusal::AnalysisInProgress(id)
        .localized(Lang::Es, &Plain)
        .starts_with(&format!("la partida #{id} todavía se está jugando")));
    let game = w.games.play.game(id).await.unwrap();
    assert!(game.is_active());
    assert_eq!(game.ply, 2);
    // The refusal held no place in the AI's queue: the game goes on, and is analysed once over.
    play_all(&w, id, &BLACK_WINS[2..]).await;
    w.games
        .standings
        .analyze(alice().id, PLACE, id)
        .await
        .unwrap();
}

pub(super) async fn a_game_against_the_ai_is_analysed_while_it_is_played(b: Backend) {
    let w = world(b).await;
    let id = small_ai_game_under_way(&w).await;
    let done = w
        .games
        .standings
        .analyze(alice().id, PLACE, id)
        .await
        .unwrap();
    assert!(done.game.is_active());
    assert_eq!(done.analysis.plies.len(), 2);
    assert_eq!(done.analysis.plies[0].played.to_string(), "a4-a3");
    // The game is as it was, and goes on.
    assert_eq!(w.games.play.game(id).await.unwrap().ply, 2);
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "c4-c3")
        .await
        .unwrap();
}

pub(super) async fn one_analysis_per_member_at_a_time_in_the_ais_queue(b: Backend) {
    let w = world_with(
        b,
        Limits {
            ai_queue: 2,
            ..Limits::default()
        },
    )
    .await;
    let finished = started(&w).await;
    play_all(&w, finished, &BLACK_WINS).await;
    let ai_game = small_ai_game_under_way(&w).await;

    let queued = w
        .games
        .standings
        .queue_analysis(alice().id, PLACE, finished)
        .await
        .unwrap();
    assert_eq!(queued.game().id, finished);
    // While it runs, her second analysis is refused, and so is her move against the AI.
    let refusal = w
        .games
        .standings
        .queue_analysis(alice().id, PLACE, ai_game)
        .await
        .unwrap_err();
    assert!(
        crate::is_refusal!(refusal, QueueRefusal::AnalysisBusyForYou(g) if g == finished),
        "{refusal:?}"
    );
    assert_eq!(
        refusal.to_string(),
        format!("the AI is still analysing game #{finished} for you: wait for it, then try again")
    );
    let her_move = |w: &World| {
        let games = w.games.clone();
        async move {
            let game = games.play.game(ai_game).await.unwrap();
            game.position.legal_moves()[0].to_string()
        }
    };
    let mv = her_move(&w).await;
    refused!(
        w.games.play.play(&alice(), PLACE, GameRef::Id(ai_game), &mv).await,
        QueueRefusal::AnalysisBusyForYou(g) if g == finished
    );
    assert_eq!(w.games.play.game(ai_game).await.unwrap().ply, 2);
    // Others are served, until the queue is full.
    let bobs = w
        .games
        .standings
        .queue_analysis(bob().id, PLACE, finished)
        .await
        .unwrap();
    refused!(
        w.games
            .standings
            .queue_analysis(carol().id, PLACE, finished)
            .await,
        QueueRefusal::Full
    );
    drop(bobs);
    let done = w.games.standings.analyze_queued(queued).await.unwrap();
    assert_eq!(done.analysis.plies.len(), 5);
    // Her place is free again; while the AI's reply to her move holds it, her analysis is
    // refused as a second move would be.
    let (_, slot) = w
        .games
        .play
        .play_with_slot(&alice(), PLACE, GameRef::Id(ai_game), &mv)
        .await
        .unwrap();
    assert!(slot.is_some());
    refused!(
        w.games.standings.queue_analysis(alice().id, PLACE, finished).await,
        QueueRefusal::AiBusyForYou(g) if g == ai_game
    );
    drop(slot);
    w.games
        .standings
        .analyze(alice().id, PLACE, finished)
        .await
        .unwrap();
}

/// A 3x5 game between members in which White, with c2-b3 on its third move, lets go a win in 2
/// moves (a3-a4, then a4-a5 whatever Black does), and wins later all the same.
const WHITE_LETS_A_WIN_GO: [&str; 14] = [
    "a4-a3", "b2xa3", "b4-c3", "b1-b2", "b5-b4", "c2-b3", "a5-a4", "b3xa4", "b4xa3", "c1-c2",
    "a3xb2", "a2-b3", "c5-b4", "a4-a5",
];

pub(super) async fn the_analysis_marks_proven_wins_and_the_win_a_player_let_go(b: Backend) {
    use breakthrough_bot::engine::analysis::{Missed, Proven};
    let w = world(b).await;
    let id = started(&w).await;
    play_all(&w, id, &WHITE_LETS_A_WIN_GO).await;
    let done = w
        .games
        .standings
        .analyze(carol().id, PLACE, id)
        .await
        .unwrap();
    let plies = &done.analysis.plies;
    // Random play lets wins go often: White's third move is the one looked at here.
    let let_go: Vec<(u32, u32, String)> = done
        .analysis
        .missed()
        .map(|(p, Missed { moves, win })| (p.ply, moves, win.to_string()))
        .collect();
    assert_eq!(
        let_go,
        [
            (6, 2, "a3-a4".to_string()),
            (7, 2, "c3-c2".to_string()),
            (12, 1, "a4-a5".to_string()),
            (13, 1, "b2-b1".to_string()),
        ]
    );
    // After Black's last move, White wins with its next one.
    assert_eq!(
        plies[12].proven,
        Some(Proven {
            winner: Color::White,
            moves: 1
        })
    );

    let summary = breakthrough_bot::text::analysis::summary(Lang::En, &Plain, &done);
    assert!(
        summary.contains(
            "Wins let go (proven by the engine):\n3. c2-b3 by White: missed a win in 2 moves: a3-a4 wins"
        ),
        "{summary}"
    );
    let file = breakthrough_bot::text::analysis::export(Lang::En, &done);
    let line = |ply: &str| {
        file.lines()
            .find(|l| l.starts_with(&format!("{ply} · ")))
            .unwrap_or_else(|| panic!("no line for ply {ply} in {file}"))
            .to_string()
    };
    assert_eq!(
        line("6"),
        "6 · White · c2-b3 · wins in 2 → loses in 2 · a3-a4 · missed a win in 2 moves: a3-a4 wins; Black wins in 2 moves from here"
    );
    assert_eq!(
        line("10"),
        "10 · White · c1-c2 · wins in 1 → wins in 1 · a4-a5 · White wins in 1 move from here"
    );
    assert_eq!(line("14"), "14 · White · a4-a5 · wins in 1 → won · a4-a5");
    let spanish = breakthrough_bot::text::analysis::export(Lang::Es, &done);
    assert!(
        spanish
            .contains("c2-b3 de las blancas: dejó escapar una victoria en 2 jugadas: a3-a4 gana"),
        "{spanish}"
    );
    assert!(
        spanish.contains("ganan las blancas en 1 jugada desde aquí"),
        "{spanish}"
    );
}
