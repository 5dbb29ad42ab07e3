//! The game service on real databases, a module per area as `src/game` is split. Each test is
//! written once, `pub(super) async fn name(b: Backend)`, and runs on a SQLite file and on a
//! PostgreSQL database of its own: list it in `on_both_backends!` at the end of this file, which
//! runs it as `service::sqlite::name` and `service::postgres::name`.
//!
//! This file holds the shared world: a service on a fresh database with a manual clock, the
//! members, and helpers to challenge, start and play games.

mod ai;
mod ai_queue;
mod analysis;
mod announce;
mod challenges;
mod clocks;
mod faults;
mod places;
mod play;
mod puzzles;
mod ratings;
mod rematch;
mod settings;
mod standings;
mod teams;
mod threads;
mod tournament_rounds;
mod tournaments;
mod vacation;

use std::sync::Arc;

use breakthrough_bot::engine::Level;
use breakthrough_bot::game::{
    AiRequest, ChallengeRef, ChallengeRequest, EndReason, Game, GameId, GameRef, Limits,
    ManualClock, Member, Place, Services, TimeControl, Timestamp,
};
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;

use crate::common::db::{on_both_backends, Backend, TestDb};

// Each area's tests, for `on_both_backends!` below.
use ai::*;
use ai_queue::*;
use analysis::*;
use announce::*;
use challenges::*;
use clocks::*;
use faults::*;
use places::*;
use play::*;
use puzzles::*;
use ratings::*;
use rematch::*;
use settings::*;
use standings::*;
use teams::*;
use threads::*;
use tournament_rounds::*;
use tournaments::*;
use vacation::*;

const PLACE: Place = Place::new(10, 20);
const T0: Timestamp = Timestamp::from_unix_seconds(1_800_000_000);

struct World {
    games: Services,
    clock: Arc<ManualClock>,
    store: Store,
    url: String,
    _db: Arc<TestDb>,
}

async fn world_with(b: Backend, limits: Limits) -> World {
    let db = Arc::new(TestDb::new(b).await);
    let url = db.url.clone();
    let store = Store::open(&url).await.expect("open store");
    let clock = Arc::new(ManualClock::new(T0));
    World {
        games: Services::new(store.clone(), clock.clone(), limits),
        clock,
        store,
        url,
        _db: db,
    }
}

async fn world(b: Backend) -> World {
    world_with(b, Limits::default()).await
}

fn alice() -> Member {
    Member::new(1001, "alice")
}
fn bob() -> Member {
    Member::new(1002, "bob")
}
fn carol() -> Member {
    Member::new(1003, "carol")
}

fn request(from: &Member, to: Option<&Member>, size: &str) -> ChallengeRequest {
    ChallengeRequest {
        place: PLACE,
        challenger: from.clone(),
        opponent: to.cloned(),
        size: size.parse().expect("size"),
        color: Some(Color::Black),
        time: TimeControl::OneHour,
        rated: true,
    }
}

/// alice (Black) against bob (White) on 3x5, started.
async fn started(w: &World) -> GameId {
    started_between(w, &alice(), &bob()).await
}

/// `black` against `white` on 3x5, started.
async fn started_between(w: &World, black: &Member, white: &Member) -> GameId {
    let c = w
        .games
        .challenges
        .challenge(request(black, Some(white), "3x5"))
        .await
        .expect("challenge");
    w.games
        .challenges
        .accept(white, ChallengeRef::Id(c.place, c.id))
        .await
        .expect("accept")
        .game
        .id
}

/// Black wins on 3x5 down the a file in five plies.
const BLACK_WINS: [&str; 5] = ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"];

async fn play_all(w: &World, id: GameId, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        w.games
            .play
            .play(&who, PLACE, GameRef::Id(id), mv)
            .await
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// The winner (none for an abort) and why, once the game is over.
fn result(game: &Game) -> Option<(Option<Color>, EndReason)> {
    game.status
        .reason()
        .map(|reason| (game.status.winner(), reason))
}

use crate::refused;

// ----- games against the built-in AI ---------------------------------------------------------

fn the_ai() -> Member {
    Member::new(9000, "bot")
}

fn ai_request(place: Place, color: Option<Color>, size: &str) -> AiRequest {
    AiRequest {
        place,
        challenger: alice(),
        ai: the_ai(),
        level: Level::new(1).expect("level 1").into(),
        size: size.parse().expect("size"),
        color,
        time: TimeControl::OneHour,
        reach: breakthrough_bot::game::Reach::Posts,
    }
}

/// Another channel of the same server as `PLACE`, another server, and a direct message.
const NEXT_CHANNEL: Place = Place::new(10, 21);
const OTHER_SERVER: Place = Place::new(11, 30);
const A_DM: Place = Place::new(0, 40);

// ----- limits on the AI: games per member, one reply each, a bounded queue --------------------

fn dave() -> Member {
    Member::new(1004, "dave")
}

/// carol (Black) and bob each move once in game `id`.
async fn carol_and_bob_move(w: &World, id: GameId) {
    w.games
        .play
        .play(&carol(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .unwrap();
    w.games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .unwrap();
}

/// What the outbox holds, oldest first, with everything due.
async fn owed(w: &World) -> Vec<breakthrough_bot::game::Announcement> {
    w.games
        .outbox
        .due_announcements(Timestamp::MAX, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.announcement.expect("a readable announcement"))
        .collect()
}

fn deadline(game: &Game) -> Timestamp {
    game.status.deadline().expect("an active game")
}

on_both_backends! {
    #[tokio::test] a_vote_game_is_played_by_its_channels_votes_to_its_end_with_credits,
    #[tokio::test] vote_games_are_refused_with_reasons,
    #[tokio::test] two_channels_of_a_server_play_each_other_by_votes,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] vote_games_started_at_once_keep_to_the_servers_limit,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] a_window_closed_by_two_processes_at_once_plays_its_move_once,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] votes_arriving_as_the_window_closes_count_only_before_it,
    #[tokio::test] a_vacation_taken_through_another_process_reaches_the_games_this_one_serves,
    #[tokio::test] a_rated_game_from_challenge_to_result_updates_ratings_as_glicko2_says,
    #[tokio::test] challenges_are_refused_with_reasons_and_change_nothing,
    #[tokio::test] moves_are_refused_with_reasons_and_change_nothing,
    #[tokio::test] abort_before_both_have_moved_leaves_no_result_and_no_rating,
    #[tokio::test] several_games_in_a_channel_need_a_game_number,
    #[tokio::test] an_open_challenge_is_taken_by_the_first_member_who_accepts,
    #[tokio::test] sweep_expires_challenges_ends_games_on_time_and_reminds_once,
    #[tokio::test] deadlines_survive_a_restart,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] fifty_concurrent_copies_of_a_move_apply_exactly_once,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] a_member_winning_two_games_at_the_same_moment_gets_both_results_rated,
    #[tokio::test] the_casual_note_says_the_daily_limit_in_force,
    #[tokio::test] three_rated_games_a_day_per_pair_then_casual,
    #[tokio::test] leaderboard_ranks_established_ratings_then_lists_provisional_ones,
    #[tokio::test] a_new_servers_leaderboard_lists_its_provisional_players,
    #[tokio::test] a_stale_move_written_together_with_others_is_turned_away_alone,
    #[tokio::test] a_game_shows_every_change_at_once_and_a_second_process_is_caught_by_the_ply_check,
    #[tokio::test] a_game_against_the_ai_from_start_to_result_is_legal_and_unrated,
    #[tokio::test] the_auto_level_meets_its_member_on_each_board,
    #[tokio::test] where_the_bot_only_answers_its_news_goes_to_the_player,
    #[tokio::test] the_ai_with_black_moves_first_and_a_restart_leaves_no_game_waiting,
    #[tokio::test] in_a_direct_message_the_ai_plays_but_members_cannot_be_challenged,
    #[tokio::test] games_against_the_ai_count_for_the_member_not_for_the_ai,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] concurrent_ai_replies_apply_one_move,
    #[tokio::test] a_write_cut_off_half_way_changes_nothing_and_holds_up_no_one,
    #[tokio::test] a_game_is_played_in_its_own_channel_and_seen_only_in_its_server,
    #[tokio::test] a_game_against_the_ai_in_a_direct_message_stays_in_that_message,
    #[tokio::test] a_resignation_before_both_sides_have_moved_is_unrated,
    #[tokio::test] aborts_and_early_time_outs_say_unrated,
    #[tokio::test] a_declined_challenge_means_no_for_an_hour,
    #[tokio::test] five_challenges_an_hour_to_the_same_member_cancelled_ones_too,
    #[tokio::test] a_fourth_game_against_the_ai_is_refused_and_says_the_limit,
    #[tokio::test] a_member_has_one_ai_reply_on_the_way_and_a_move_elsewhere_meanwhile_changes_nothing,
    #[tokio::test] a_full_ai_queue_refuses_at_once_and_leaves_no_game_waiting,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] many_members_at_once_against_a_small_ai_queue_are_played_or_refused_never_stuck,
    #[tokio::test] a_broken_game_does_not_stop_the_sweep_of_the_others,
    #[tokio::test] the_sweep_queues_each_announcement_with_its_change,
    #[tokio::test] the_outbox_hears_of_each_queued_announcement_as_its_write_commits,
    #[tokio::test] a_turn_told_by_direct_message_waits_for_the_board_it_links_to,
    #[tokio::test] clocks_move_on_by_the_time_the_service_was_away,
    #[tokio::test] an_announced_ai_reply_is_queued_with_the_move,
    #[tokio::test] a_member_is_called_in_each_server_by_the_name_they_use_there,
    #[tokio::test] a_refused_ending_says_whether_the_game_or_the_ratings_moved_on,
    #[tokio::test] a_stored_value_that_does_not_read_back_is_an_internal_error_not_a_panic,
    #[tokio::test] a_rematch_swaps_colours_keeps_the_terms_and_is_offered_once,
    #[tokio::test] a_rematch_meets_every_limit_of_a_challenge,
    #[tokio::test] a_rematch_against_the_ai_starts_the_game_at_once,
    #[tokio::test] a_vacation_pauses_only_the_members_clocks_and_moving_ends_it,
    #[tokio::test] vacations_keep_to_the_yearly_allowance_and_refuse_clearly,
    #[tokio::test] a_finished_game_between_members_is_analysed_by_anyone_in_its_server,
    #[tokio::test] a_game_between_members_in_progress_is_not_analysed_and_nothing_changes,
    #[tokio::test] a_game_against_the_ai_is_analysed_while_it_is_played,
    #[tokio::test] one_analysis_per_member_at_a_time_in_the_ais_queue,
    #[tokio::test] the_analysis_marks_proven_wins_and_the_win_a_player_let_go,
    #[tokio::test] turn_notifications_are_queued_with_the_change_and_lapse_with_it,
    #[tokio::test] each_shard_sweeps_only_its_own_servers,
    #[tokio::test] a_write_transaction_dropped_half_way_keeps_nothing_and_holds_up_no_one,
    #[tokio::test] settings_default_to_emoji_and_no_threads_and_change_one_choice_at_a_time,
    #[tokio::test] a_members_board_and_turn_notifications_are_kept_apart,
    #[tokio::test] settings_are_kept_across_a_restart,
    #[tokio::test] a_servers_settings_are_refused_in_a_direct_message,
    #[tokio::test] a_game_in_its_thread_is_played_there_and_its_end_is_told_in_its_channel,
    #[tokio::test] a_game_whose_thread_is_deleted_goes_back_to_its_channel_with_what_it_owes,
    #[tokio::test] why_threads_were_refused_is_kept_until_a_game_gets_one,
    #[tokio::test] create_refusals,
    #[tokio::test] entry_and_start_refusals,
    #[tokio::test] a_round_robin_of_five_is_played_to_its_end,
    #[tokio::test] a_swiss_of_seven_with_a_withdrawal_a_time_out_and_a_vacation,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] two_last_games_ending_at_once_pair_the_next_round_once,
    #[tokio::test] a_round_owed_after_a_crash_is_paired_once_by_the_sweep,
    #[tokio::test] withdrawals_pair_the_next_round_and_end_a_swiss_left_with_one,
    #[tokio::test] a_round_robin_withdrawal_forfeits_the_rest_and_a_cancelled_one_plays_on,
    #[tokio::test] the_sweep_starts_a_tournament_at_its_time_or_cancels_it,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] tournaments_created_at_once_keep_to_the_servers_limit,
    #[tokio::test] every_test_puzzle_is_proven,
    #[tokio::test] a_right_line_solves_a_puzzle_and_rates_both_as_glicko2_says,
    #[tokio::test] a_wrong_first_move_fails_shows_the_solution_and_a_repeat_moves_nothing,
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)] two_moves_at_once_in_a_puzzle_apply_once,
    #[tokio::test] the_daily_puzzle_is_the_servers_for_the_day_and_hides_its_answer,
    #[tokio::test] pools_load_once_and_a_new_line_adds_one_puzzle,
}
