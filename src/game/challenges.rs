//! Challenges between members: made, accepted, declined, cancelled, and the limits on them.

use crate::rules::{ByColor, Color, Position};
use crate::store::{ChallengeRow, NewChallenge, NewGame, StoreError, Unique, WriteTx};

use super::policy::color_or_drawn;
use super::vacation::turn_deadline;
use super::{
    Announcement, Challenge, ChallengeError, ChallengeId, ChallengeRef, ChallengeRefusal,
    ChallengeRequest, ChallengeState, Challenges, GameId, GuildId, Member, MemberId, Place, Result,
    Started, Timestamp, DAY, HOUR,
};

/// Whose limit of games a check is about, for the refusal to name them: the member who asked,
/// or the one they would play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Whose {
    Callers,
    Opponents,
}

impl Challenges {
    /// Makes a challenge. Rated games between members are capped per day and pair: past the cap,
    /// the challenge is casual and says so.
    ///
    /// # Errors
    ///
    /// A refusal that says why, with nothing written: [`ChallengeRefusal::NotInServer`](crate::game::ChallengeRefusal::NotInServer) in a direct
    /// message, [`ChallengeRefusal::SelfChallenge`](crate::game::ChallengeRefusal::SelfChallenge), [`ChallengeRefusal::BotOpponent`](crate::game::ChallengeRefusal::BotOpponent), [`ChallengeRefusal::Declined`](crate::game::ChallengeRefusal::Declined)
    /// within the hour after a decline, [`ChallengeRefusal::TooManyChallengesTo`](crate::game::ChallengeRefusal::TooManyChallengesTo),
    /// [`ChallengeRefusal::DuplicateChallenge`](crate::game::ChallengeRefusal::DuplicateChallenge), [`ChallengeRefusal::DuplicateOpenChallenge`](crate::game::ChallengeRefusal::DuplicateOpenChallenge),
    /// [`ChallengeRefusal::TooManyChallenges`](crate::game::ChallengeRefusal::TooManyChallenges) or [`ChallengeRefusal::TooManyGames`](crate::game::ChallengeRefusal::TooManyGames); [`Failure::StorageFull`](crate::game::Failure::StorageFull)
    /// when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn challenge(&self, req: ChallengeRequest) -> Result<Challenge, ChallengeError> {
        self.challenge_as(req, None).await
    }

    /// [`Challenges::challenge`], as the rematch of game `rematch_of` when given: recorded in the same
    /// write, and refused with [`ChallengeRefusal::RematchTaken`](crate::game::ChallengeRefusal::RematchTaken) when that rematch was already offered.
    pub(super) async fn challenge_as(
        &self,
        req: ChallengeRequest,
        rematch_of: Option<GameId>,
    ) -> Result<Challenge, ChallengeError> {
        let now = self.now();
        if req.place.is_direct() {
            return Err(ChallengeRefusal::NotInServer.into());
        }
        if req
            .opponent
            .as_ref()
            .is_some_and(|o| o.id == req.challenger.id)
        {
            return Err(ChallengeRefusal::SelfChallenge.into());
        }
        let mut tx = self.store.begin().await?;
        if let Some(o) = &req.opponent {
            if tx.member_is_bot(o.id).await? {
                return Err(ChallengeRefusal::BotOpponent(o.name.clone()).into());
            }
        }
        if let Some(o) = &req.opponent {
            self.check_pair_challenges(&mut tx, &req.challenger, o, now)
                .await?;
        }
        let pending = tx.count_pending_challenges_by(req.challenger.id).await?;
        if pending >= self.limits.pending_challenges {
            return Err(ChallengeRefusal::TooManyChallenges(pending).into());
        }
        self.check_game_limit(&mut tx, &req.challenger, Whose::Callers)
            .await?;
        tx.upsert_member(
            req.place.guild,
            req.challenger.id,
            req.challenger.name.as_str(),
            now,
        )
        .await?;
        // Allowed, but said: the opponent's clocks wait for them until they are back.
        let opponent_away_until = match &req.opponent {
            Some(o) => tx.away_until(o.id).await?.filter(|&t| t > now),
            None => None,
        };
        let mut rated = req.rated;
        let mut casual_by_limit = None;
        if let Some(o) = &req.opponent {
            tx.upsert_member(req.place.guild, o.id, o.name.as_str(), now)
                .await?;
            if rated
                && self
                    .pair_limit_reached(&mut tx, req.place.guild, req.challenger.id, o.id, now)
                    .await?
            {
                rated = false;
                casual_by_limit = Some(self.limits.rated_per_pair_per_day);
            }
        }
        let new = NewChallenge {
            guild_id: req.place.guild,
            channel_id: req.place.channel,
            challenger_id: req.challenger.id,
            opponent_id: req.opponent.as_ref().map(|o| o.id),
            size: req.size,
            challenger_color: req.color,
            time_limit: req.time,
            rated,
            created_at: now,
            expires_at: now + self.limits.challenge_ttl,
        };
        if let Some(game) = rematch_of {
            if !tx.claim_rematch(game, now).await? {
                return Err(ChallengeRefusal::RematchTaken(game).into());
            }
        }
        let id = match tx.insert_challenge(&new).await {
            Ok(id) => id,
            Err(StoreError::Conflict(Unique::PendingChallengePerPair)) => {
                if let Some(o) = &req.opponent {
                    return Err(ChallengeRefusal::DuplicateChallenge(o.name.clone()).into());
                }
                // Only a challenge with an opponent is kept to one per pair.
                return Err(
                    super::error::corrupt("a pair's rule refused an open challenge").into(),
                );
            }
            Err(StoreError::Conflict(Unique::OpenChallengePerChannel)) => {
                return Err(ChallengeRefusal::DuplicateOpenChallenge.into())
            }
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        Ok(Challenge {
            id,
            place: req.place,
            challenger: req.challenger,
            opponent: req.opponent,
            size: req.size,
            color: req.color,
            time: req.time,
            rated,
            casual_by_limit,
            opponent_away_until,
            state: ChallengeState::Pending,
            expires_at: new.expires_at,
        })
    }

    pub(super) async fn check_game_limit(
        &self,
        tx: &mut WriteTx,
        who: &Member,
        whose: Whose,
    ) -> Result<(), ChallengeError> {
        let active = tx.count_active_games(who.id).await?;
        if active >= self.limits.active_games {
            let limit = self.limits.active_games;
            return Err(if whose == Whose::Callers {
                ChallengeRefusal::TooManyGames { limit }
            } else {
                ChallengeRefusal::OpponentTooManyGames {
                    name: who.name.clone(),
                    limit,
                }
            }
            .into());
        }
        Ok(())
    }

    /// A declined challenge means no for a while, and nobody may ping the same member with
    /// challenge after challenge: both counted from the stored challenges.
    async fn check_pair_challenges(
        &self,
        tx: &mut WriteTx,
        from: &Member,
        to: &Member,
        now: Timestamp,
    ) -> Result<(), ChallengeError> {
        let found = tx
            .challenges_to(from.id, to.id, now - HOUR, now - self.limits.decline_pause)
            .await?;
        if let Some(at) = found.declined_at {
            return Err(ChallengeRefusal::Declined {
                name: to.name.clone(),
                wait: at + self.limits.decline_pause - now,
            }
            .into());
        }
        if found.count >= self.limits.challenges_per_pair_per_hour {
            return Err(ChallengeRefusal::TooManyChallengesTo {
                name: to.name.clone(),
                limit: self.limits.challenges_per_pair_per_hour,
                wait: found.oldest.map_or(HOUR, |t| t + HOUR - now),
            }
            .into());
        }
        Ok(())
    }

    async fn pair_limit_reached(
        &self,
        tx: &mut WriteTx,
        guild: GuildId,
        a: MemberId,
        b: MemberId,
        now: Timestamp,
    ) -> Result<bool, ChallengeError> {
        let played = tx.count_rated_games_between(guild, a, b, now - DAY).await?;
        Ok(played >= self.limits.rated_per_pair_per_day)
    }

    /// `id`, if that challenge was made in the channel `at`; anywhere else it is not there.
    async fn challenge_at(
        &self,
        at: Place,
        id: ChallengeId,
    ) -> Result<ChallengeId, ChallengeError> {
        match self.store.challenge(id).await? {
            Some(row) if row.guild_id == at.guild && row.channel_id == at.channel => Ok(id),
            _ => Err(ChallengeRefusal::NoSuchChallenge(id).into()),
        }
    }

    /// Finds the pending challenge an answer from `who` means.
    async fn find_challenge(
        &self,
        who: MemberId,
        which: ChallengeRef,
    ) -> Result<ChallengeId, ChallengeError> {
        let (place, challenger) = match which {
            ChallengeRef::Id(at, id) => return self.challenge_at(at, id).await,
            ChallengeRef::Find(place, challenger) => (place, challenger),
        };
        let mut found = self
            .store
            .challenges_for(place.guild, place.channel, who)
            .await?;
        if let Some(c) = challenger {
            found.retain(|row| row.challenger_id == c);
        }
        match found.len() {
            0 => Err(match challenger {
                Some(c) => ChallengeRefusal::NoChallengeFrom(self.name_of(place.guild, c).await?),
                None => ChallengeRefusal::NoChallengeForYou,
            }
            .into()),
            1 => Ok(found[0].id),
            _ => {
                let mut names = Vec::new();
                for row in &found {
                    names.push(self.name_of(row.guild_id, row.challenger_id).await?);
                }
                Err(ChallengeRefusal::AmbiguousChallenge(names).into())
            }
        }
    }

    /// The challenge an answer from `who` means, read again in the write transaction that
    /// answers it.
    async fn challenge_to_answer(
        &self,
        who: MemberId,
        which: ChallengeRef,
    ) -> Result<(WriteTx, ChallengeRow), ChallengeError> {
        let id = self.find_challenge(who, which).await?;
        let mut tx = self.store.begin().await?;
        let row = tx
            .challenge(id)
            .await?
            .ok_or(ChallengeRefusal::NoSuchChallenge(id))?;
        Ok((tx, row))
    }

    /// Accepts a challenge: the game starts, colours as asked or drawn. Black, to move first, is
    /// told their turn by direct message if they asked for it and are not the one accepting.
    ///
    /// # Errors
    ///
    /// [`ChallengeRefusal::NoChallengeForYou`](crate::game::ChallengeRefusal::NoChallengeForYou), [`ChallengeRefusal::NoChallengeFrom`](crate::game::ChallengeRefusal::NoChallengeFrom),
    /// [`ChallengeRefusal::AmbiguousChallenge`](crate::game::ChallengeRefusal::AmbiguousChallenge) or
    /// [`ChallengeRefusal::NoSuchChallenge`](crate::game::ChallengeRefusal::NoSuchChallenge) when `which` finds none or several,
    /// [`ChallengeRefusal::NotYourChallenge`](crate::game::ChallengeRefusal::NotYourChallenge), [`ChallengeRefusal::SelfChallenge`](crate::game::ChallengeRefusal::SelfChallenge),
    /// [`ChallengeRefusal::ChallengeClosed`](crate::game::ChallengeRefusal::ChallengeClosed) once it is answered or expired, [`ChallengeRefusal::TooManyGames`](crate::game::ChallengeRefusal::TooManyGames) or
    /// [`ChallengeRefusal::OpponentTooManyGames`](crate::game::ChallengeRefusal::OpponentTooManyGames);
    /// [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database
    /// fails.
    pub async fn accept(
        &self,
        who: &Member,
        which: ChallengeRef,
    ) -> Result<Started, ChallengeError> {
        let now = self.now();
        let (mut tx, row) = self.challenge_to_answer(who.id, which).await?;
        let id = row.id;
        self.check_answerable(&row, who, now).await?;
        if row.opponent_id.is_none() && row.challenger_id == who.id {
            return Err(ChallengeRefusal::SelfChallenge.into());
        }
        tx.upsert_member(row.guild_id, who.id, who.name.as_str(), now)
            .await?;
        let challenger = Member::new(
            row.challenger_id,
            self.name_of(row.guild_id, row.challenger_id).await?,
        );
        self.check_game_limit(&mut tx, who, Whose::Callers).await?;
        self.check_game_limit(&mut tx, &challenger, Whose::Opponents)
            .await?;
        let mut rated = row.rated;
        if rated
            && self
                .pair_limit_reached(&mut tx, row.guild_id, row.challenger_id, who.id, now)
                .await?
        {
            rated = false;
        }
        let challenger_color = color_or_drawn(row.challenger_color);
        let (black, white) = match challenger_color {
            Color::Black => (row.challenger_id, who.id),
            Color::White => (who.id, row.challenger_id),
        };
        // Black moves first; on vacation, their clock starts when they are back.
        let black_back = tx.away_until(black).await?;
        let game_id = tx
            .insert_game(&NewGame {
                guild_id: row.guild_id,
                channel_id: row.channel_id,
                players: ByColor::new(black, white),
                size: row.size,
                time_limit: row.time_limit,
                rated,
                position: Position::new(row.size),
                deadline: turn_deadline(now, row.time_limit, black_back),
                created_at: now,
                ai_level: None,
                ai_auto: false,
                answers_only: false,
            })
            .await?;
        // Black, to move first, asked to be told their turn (unless they are the one accepting).
        let notified = (black != who.id && tx.notifies_dm(black).await?).then_some(black);
        if notified.is_some() {
            let told = Announcement::YourTurn {
                game: game_id,
                member: black,
                ply: 0,
                reminder: false,
            };
            let place = Place {
                guild: row.guild_id,
                channel: row.channel_id,
            };
            tx.insert_outbox(&told.row(place, now)?).await?;
        }
        let place = Place {
            guild: row.guild_id,
            channel: row.channel_id,
        };
        if let Some(thread) = self.thread_for(game_id, place, now).await? {
            tx.insert_outbox(&thread).await?;
        }
        if !tx
            .resolve_challenge(id, ChallengeState::Accepted(game_id), now)
            .await?
        {
            return Err(closed(&mut tx, id).await?.into());
        }
        tx.commit().await?;
        Ok(Started {
            game: self.game_known(game_id).await?,
            notified,
        })
    }

    /// Checks that `who` may answer the pending challenge `row` now. One past its expiry is
    /// refused as expired; the sweeper marks and announces it.
    async fn check_answerable(
        &self,
        row: &ChallengeRow,
        who: &Member,
        now: Timestamp,
    ) -> Result<(), ChallengeError> {
        if row.state != ChallengeState::Pending {
            return Err(ChallengeRefusal::ChallengeClosed(row.state).into());
        }
        if row.expires_at <= now {
            // Leave it to the sweeper to announce; refuse the answer now.
            return Err(ChallengeRefusal::ChallengeClosed(ChallengeState::Expired).into());
        }
        if let Some(opponent) = row.opponent_id {
            if opponent != who.id {
                return Err(ChallengeRefusal::NotYourChallenge(
                    self.name_of(row.guild_id, opponent).await?,
                )
                .into());
            }
        }
        Ok(())
    }

    /// Declines a challenge aimed at `who`.
    ///
    /// # Errors
    ///
    /// As [`Challenges::accept`] for finding the challenge, and [`ChallengeRefusal::DeclineOpen`](crate::game::ChallengeRefusal::DeclineOpen) for an open
    /// challenge (it has no one to decline it); [`Failure::StorageFull`](crate::game::Failure::StorageFull) when the disk is full,
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn decline(
        &self,
        who: &Member,
        which: ChallengeRef,
    ) -> Result<Challenge, ChallengeError> {
        let now = self.now();
        let (mut tx, row) = self.challenge_to_answer(who.id, which).await?;
        let id = row.id;
        if row.opponent_id.is_none() {
            if row.challenger_id == who.id {
                return Err(ChallengeRefusal::DeclineOwnOpen.into());
            }
            return Err(ChallengeRefusal::DeclineOpen.into());
        }
        self.check_answerable(&row, who, now).await?;
        if !tx
            .resolve_challenge(id, ChallengeState::Declined, now)
            .await?
        {
            return Err(closed(&mut tx, id).await?.into());
        }
        tx.commit().await?;
        self.challenge_view(id).await
    }

    /// Cancels a challenge `who` made: the one given, or all their pending ones in the server.
    ///
    /// # Errors
    ///
    /// [`ChallengeRefusal::NoChallengeToCancel`](crate::game::ChallengeRefusal::NoChallengeToCancel) when `who` has none pending here, [`ChallengeRefusal::NoSuchChallenge`](crate::game::ChallengeRefusal::NoSuchChallenge),
    /// [`ChallengeRefusal::NotYourCancel`](crate::game::ChallengeRefusal::NotYourCancel), [`ChallengeRefusal::ChallengeClosed`](crate::game::ChallengeRefusal::ChallengeClosed); [`Failure::StorageFull`](crate::game::Failure::StorageFull)
    /// when the disk is full, [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn cancel(
        &self,
        who: &Member,
        which: ChallengeRef,
    ) -> Result<Vec<Challenge>, ChallengeError> {
        let now = self.now();
        let ids: Vec<ChallengeId> = match which {
            ChallengeRef::Id(at, id) => vec![self.challenge_at(at, id).await?],
            ChallengeRef::Find(place, _) => self
                .store
                .challenges_by(place.guild, who.id)
                .await?
                .iter()
                .map(|c| c.id)
                .collect(),
        };
        if ids.is_empty() {
            return Err(ChallengeRefusal::NoChallengeToCancel.into());
        }
        let mut tx = self.store.begin().await?;
        for &id in &ids {
            let row = tx
                .challenge(id)
                .await?
                .ok_or(ChallengeRefusal::NoSuchChallenge(id))?;
            if row.challenger_id != who.id {
                return Err(ChallengeRefusal::NotYourCancel(
                    self.name_of(row.guild_id, row.challenger_id).await?,
                )
                .into());
            }
            if row.state != ChallengeState::Pending {
                return Err(ChallengeRefusal::ChallengeClosed(row.state).into());
            }
            tx.resolve_challenge(id, ChallengeState::Cancelled, now)
                .await?;
        }
        tx.commit().await?;
        let mut out = Vec::new();
        for id in ids {
            out.push(self.challenge_view(id).await?);
        }
        Ok(out)
    }

    /// A challenge by id.
    ///
    /// # Errors
    ///
    /// [`ChallengeRefusal::NoSuchChallenge`](crate::game::ChallengeRefusal::NoSuchChallenge); [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn challenge_view(&self, id: ChallengeId) -> Result<Challenge, ChallengeError> {
        let row = self
            .store
            .challenge(id)
            .await?
            .ok_or(ChallengeRefusal::NoSuchChallenge(id))?;
        Ok(self.challenge_from_row(row).await?)
    }

    pub(super) async fn challenge_from_row(&self, row: ChallengeRow) -> Result<Challenge> {
        let challenger = Member::new(
            row.challenger_id,
            self.name_of(row.guild_id, row.challenger_id).await?,
        );
        let opponent = match row.opponent_id {
            Some(o) => Some(Member::new(o, self.name_of(row.guild_id, o).await?)),
            None => None,
        };
        Ok(Challenge {
            id: row.id,
            place: Place {
                guild: row.guild_id,
                channel: row.channel_id,
            },
            challenger,
            opponent,
            size: row.size,
            color: row.challenger_color,
            time: row.time_limit,
            rated: row.rated,
            casual_by_limit: None,
            opponent_away_until: None,
            state: row.state,
            expires_at: row.expires_at,
        })
    }
}

/// The refusal for challenge `id`, found no longer pending as its answer was written: closed, in
/// the state it is in now.
async fn closed(tx: &mut WriteTx, id: ChallengeId) -> Result<ChallengeRefusal, ChallengeError> {
    let row = tx
        .challenge(id)
        .await?
        .ok_or(ChallengeRefusal::NoSuchChallenge(id))?;
    Ok(ChallengeRefusal::ChallengeClosed(row.state))
}
