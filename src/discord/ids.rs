//! Discord's ids as the game knows them: members, servers, and the place a command or a click
//! came from.

use poise::serenity_prelude as serenity;

use crate::game::{self, Member, Place, Reach};

use super::Context;

pub(super) fn user_member(user: &serenity::User) -> Member {
    Member::new(member_id(user.id), user.display_name().to_string())
}

/// A Discord user as the game knows them: the same snowflake.
pub(super) fn member_id(id: serenity::UserId) -> game::MemberId {
    game::MemberId::new(id.get())
}

/// A server as the game knows it: the same snowflake.
pub(super) fn guild_id(id: serenity::GuildId) -> game::GuildId {
    game::GuildId::new(id.get())
}

/// A message as the game knows it: the same snowflake.
pub(super) fn message_id(id: serenity::MessageId) -> game::MessageId {
    game::MessageId::new(id.get())
}

/// The server of an interaction; none is a direct message ([`game::GuildId::DIRECT`]).
fn guild_or_direct(id: Option<serenity::GuildId>) -> game::GuildId {
    id.map_or(game::GuildId::DIRECT, guild_id)
}

/// Where a command was sent.
pub(super) fn place(ctx: Context<'_>) -> Place {
    Place {
        guild: guild_or_direct(ctx.guild_id()),
        channel: game::ChannelId::new(ctx.channel_id().get()),
    }
}

/// Where a button was clicked.
pub(super) fn click_place(click: &serenity::ComponentInteraction) -> Place {
    Place {
        guild: guild_or_direct(click.guild_id),
        channel: game::ChannelId::new(click.channel_id.get()),
    }
}

/// What the bot can do where a command comes from: post there, or only answer its member (the
/// bot installed to their own account, used in a group DM or in a server that has not added
/// it). An interaction that does not say is taken as from where the bot posts.
pub(super) fn reach(ctx: Context<'_>) -> Reach {
    match ctx {
        poise::Context::Application(app) => reach_of(
            app.interaction.context,
            &app.interaction.authorizing_integration_owners,
        ),
        poise::Context::Prefix(_) => Reach::Posts,
    }
}

fn reach_of(
    context: Option<serenity::InteractionContext>,
    owners: &serenity::AuthorizingIntegrationOwners,
) -> Reach {
    let added_here = owners
        .0
        .iter()
        .any(|o| matches!(o, serenity::AuthorizingIntegrationOwner::GuildInstall(_)));
    match context {
        Some(serenity::InteractionContext::PrivateChannel) => Reach::AnswersOnly,
        Some(serenity::InteractionContext::Guild) if !added_here => Reach::AnswersOnly,
        _ => Reach::Posts,
    }
}

/// The member who sent a command, with the name they show in this server.
pub(super) async fn caller(ctx: Context<'_>) -> Member {
    let name = match ctx.author_member().await {
        Some(m) => m.display_name().to_string(),
        None => ctx.author().display_name().to_string(),
    };
    Member::new(member_id(ctx.author().id), name)
}

#[cfg(test)]
mod tests {
    use super::{reach_of, Reach};
    use poise::serenity_prelude::{
        AuthorizingIntegrationOwner as Owner, AuthorizingIntegrationOwners as Owners, GuildId,
        InteractionContext as Where, UserId,
    };

    #[test]
    fn the_bot_posts_where_a_server_added_it_or_in_its_own_dms_and_elsewhere_only_answers() {
        let user = Owner::UserInstall(UserId::new(7));
        let server = Owner::GuildInstall(Some(GuildId::new(9)));
        let cases = [
            (Some(Where::Guild), vec![server.clone()], Reach::Posts),
            (Some(Where::Guild), vec![server, user.clone()], Reach::Posts),
            // A member's own install, in a server that has not added the bot.
            (Some(Where::Guild), vec![user.clone()], Reach::AnswersOnly),
            (Some(Where::BotDm), vec![user.clone()], Reach::Posts),
            (Some(Where::PrivateChannel), vec![user], Reach::AnswersOnly),
            // An interaction that does not say.
            (None, vec![], Reach::Posts),
        ];
        for (context, owners, reach) in cases {
            assert_eq!(
                reach_of(context, &Owners(owners.clone())),
                reach,
                "{context:?} {owners:?}"
            );
        }
    }
}
