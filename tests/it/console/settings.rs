//! `/settings` and `/server-settings` in the console: shown without options, saved with, each
//! member's own and the local server's, kept on the database, and values it cannot read refused.

use super::run_script;

#[test]
fn settings_are_shown_saved_and_kept_for_each_member_and_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("s.db").display());
    let out = run_script(
        &db,
        "@alice /settings\n@alice /settings board:image\n@bob /settings\n\
         @alice /server-settings threads:on\n@bob /server-settings image\n\
         @alice /settings board:picture\n@alice /server-settings threads:maybe\n",
        true,
    );
    let replies: Vec<&str> = out.split("(to @").skip(1).collect();
    assert_eq!(replies.len(), 7, "{out}");
    assert_eq!(
        replies[0],
        "alice only)\nYour settings, for what only you see (private boards and direct messages):\n\
         board: emoji\n\
         Change them with /settings board:emoji or board:image.\n"
    );
    assert!(
        replies[1].starts_with("alice only)\nSaved.\nYour settings,")
            && replies[1].contains("\nboard: image\n"),
        "{out}"
    );
    // bob's own choice is his, untouched by alice's.
    assert!(replies[2].contains("\nboard: emoji\n"), "{out}");
    assert_eq!(
        replies[3],
        "alice only)\nSaved.\n\
         This server's settings, for what everyone here sees:\n\
         board: emoji\n\
         threads: on (a public thread for each game started in a channel)\n\
         Members who may manage the server change them with \
         /server-settings board:emoji|image threads:on|off.\n"
    );
    // A bare value goes to the first option; threads stays on.
    assert!(replies[4].contains("\nboard: image\nthreads: on "), "{out}");
    assert_eq!(
        replies[5],
        "alice only) `picture` is not a way to show boards: choose emoji or image\n"
    );
    assert_eq!(replies[6], "alice only) `maybe`: say on or off\n");

    // Another run on the same database: every choice is where it was left.
    let out = run_script(&db, "@alice /settings\n@bob /server-settings\n", true);
    assert!(out.contains("\nboard: image\nChange them"), "{out}");
    assert!(out.contains("\nboard: image\nthreads: on "), "{out}");
}
