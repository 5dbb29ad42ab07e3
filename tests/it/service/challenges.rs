//! Challenges between members: refused with their reasons, taken by the first who accepts an
//! open one, and the limits on declined and repeated challenges.

use breakthrough_bot::game::{
    ChallengeId, ChallengeRef, ChallengeRefusal, ChallengeState, GuildId, Member,
};
use breakthrough_bot::rules::BoardSize;

use super::{alice, bob, carol, refused, request, world, A_DM, NEXT_CHANNEL, OTHER_SERVER, PLACE};
use crate::common::db::Backend;
use crate::common::secs;

pub(super) async fn challenges_are_refused_with_reasons_and_change_nothing(b: Backend) {
    let w = world(b).await;
    refused!(
        w.games
            .challenges
            .challenge(request(&alice(), Some(&alice()), "8x8"))
            .await,
        ChallengeRefusal::SelfChallenge
    );
    let mut dm = request(&alice(), Some(&bob()), "8x8");
    dm.place.guild = GuildId::DIRECT;
    refused!(
        w.games.challenges.challenge(dm).await,
        ChallengeRefusal::NotInServer
    );

    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "8x8"))
        .await
        .unwrap();
    refused!(
        w.games
            .challenges
            .challenge(request(&alice(), Some(&bob()), "7x7"))
            .await,
        ChallengeRefusal::DuplicateChallenge(_)
    );
    refused!(
        w.games
            .challenges
            .challenge(request(&bob(), Some(&alice()), "7x7"))
            .await,
        ChallengeRefusal::DuplicateChallenge(_)
    );
    // Only bob may answer; carol cannot, nor can alice accept her own.
    refused!(
        w.games
            .challenges
            .accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::NotYourChallenge(_)
    );
    refused!(
        w.games
            .challenges
            .accept(&alice(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::NotYourChallenge(_)
    );
    refused!(
        w.games
            .challenges
            .accept(&carol(), ChallengeRef::Find(PLACE, None))
            .await,
        ChallengeRefusal::NoChallengeForYou
    );
    refused!(
        w.games
            .challenges
            .cancel(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::NotYourCancel(_)
    );
    // A button is answered only on the challenge's own message: a click that claims to come
    // from another channel, server or a DM finds no such challenge.
    for at in [NEXT_CHANNEL, OTHER_SERVER, A_DM] {
        let elsewhere = ChallengeRef::Id(at, c.id);
        refused!(
            w.games.challenges.accept(&bob(), elsewhere).await,
            ChallengeRefusal::NoSuchChallenge(_)
        );
        refused!(
            w.games.challenges.decline(&bob(), elsewhere).await,
            ChallengeRefusal::NoSuchChallenge(_)
        );
        refused!(
            w.games.challenges.cancel(&alice(), elsewhere).await,
            ChallengeRefusal::NoSuchChallenge(_)
        );
    }
    assert_eq!(
        w.games.challenges.challenge_view(c.id).await.unwrap().state,
        ChallengeState::Pending
    );
    let declined = w
        .games
        .challenges
        .decline(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    assert_eq!(declined.state, ChallengeState::Declined);
    refused!(
        w.games
            .challenges
            .accept(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::ChallengeClosed(ChallengeState::Declined)
    );
    refused!(
        w.games.challenges.accept(&bob(), ChallengeRef::Id(PLACE, ChallengeId::new(999))).await,
        ChallengeRefusal::NoSuchChallenge(id) if id == ChallengeId::new(999)
    );

    // At most five pending challenges per member.
    for i in 0..5 {
        let op = Member::new(2000 + i, format!("m{i}"));
        w.games
            .challenges
            .challenge(request(&alice(), Some(&op), "8x8"))
            .await
            .unwrap();
    }
    refused!(
        w.games
            .challenges
            .challenge(request(&alice(), Some(&carol()), "8x8"))
            .await,
        ChallengeRefusal::TooManyChallenges(5)
    );
    let cancelled = w
        .games
        .challenges
        .cancel(&alice(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    assert_eq!(cancelled.len(), 5);
    assert!(cancelled
        .iter()
        .all(|c| c.state == ChallengeState::Cancelled));
    refused!(
        w.games
            .challenges
            .cancel(&alice(), ChallengeRef::Find(PLACE, None))
            .await,
        ChallengeRefusal::NoChallengeToCancel
    );
}

pub(super) async fn an_open_challenge_is_taken_by_the_first_member_who_accepts(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), None, "6x5"))
        .await
        .unwrap();
    assert!(c.opponent.is_none());
    refused!(
        w.games
            .challenges
            .challenge(request(&alice(), None, "8x8"))
            .await,
        ChallengeRefusal::DuplicateOpenChallenge
    );
    refused!(
        w.games
            .challenges
            .accept(&alice(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::SelfChallenge
    );
    refused!(
        w.games
            .challenges
            .decline(&bob(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::DeclineOpen
    );
    let game = w
        .games
        .challenges
        .accept(&bob(), ChallengeRef::Find(PLACE, Some(alice().id)))
        .await
        .unwrap()
        .game;
    assert_eq!(
        (
            game.players.black.name.as_str(),
            game.players.white.name.as_str()
        ),
        ("alice", "bob")
    );
    assert_eq!(game.size, BoardSize::new(6, 5).unwrap());
    refused!(
        w.games.challenges.accept(&carol(), ChallengeRef::Id(c.place, c.id))
            .await,
        ChallengeRefusal::ChallengeClosed(ChallengeState::Accepted(id)) if id == game.id
    );
}

pub(super) async fn a_declined_challenge_means_no_for_an_hour(b: Backend) {
    let w = world(b).await;
    let c = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    w.clock.advance(secs(60));
    w.games
        .challenges
        .decline(&bob(), ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    w.clock.advance(secs(15 * 60));
    let refusal = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .expect_err("a challenge soon after a decline");
    assert_eq!(
        refusal.to_string(),
        "bob declined your challenge: you can challenge them again in 45m"
    );
    // Nothing was written; others are free to challenge bob, and bob alice.
    assert_eq!(
        w.store
            .challenge(ChallengeId::new(c.id.get() + 1))
            .await
            .unwrap(),
        None
    );
    w.games
        .challenges
        .challenge(request(&carol(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    w.games
        .challenges
        .challenge(request(&bob(), Some(&alice()), "3x5"))
        .await
        .unwrap();
    // An hour after the decline, alice may ask again.
    w.clock.advance(secs(45 * 60));
    w.games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    w.games
        .challenges
        .cancel(&bob(), ChallengeRef::Find(PLACE, None))
        .await
        .unwrap();
    w.games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
}

pub(super) async fn five_challenges_an_hour_to_the_same_member_cancelled_ones_too(b: Backend) {
    let w = world(b).await;
    for _ in 0..5 {
        w.games
            .challenges
            .challenge(request(&alice(), Some(&bob()), "3x5"))
            .await
            .unwrap();
        w.clock.advance(secs(60));
        w.games
            .challenges
            .cancel(&alice(), ChallengeRef::Find(PLACE, None))
            .await
            .unwrap();
    }
    w.clock.advance(secs(5 * 60));
    let refusal = w
        .games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .expect_err("a sixth challenge within the hour");
    assert_eq!(
        refusal.to_string(),
        "you have challenged bob 5 times in the last hour, the most allowed: \
         you can challenge them again in 50m"
    );
    assert_eq!(w.store.challenge(ChallengeId::new(6)).await.unwrap(), None);
    // Others are not held back by it.
    w.games
        .challenges
        .challenge(request(&alice(), Some(&carol()), "3x5"))
        .await
        .unwrap();
    // Once the first of the five is an hour old, one more may go out.
    w.clock.advance(secs(50 * 60));
    w.games
        .challenges
        .challenge(request(&alice(), Some(&bob()), "3x5"))
        .await
        .unwrap();
}
