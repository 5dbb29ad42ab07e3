// `sqlx::migrate!` embeds `migrations/` in the binary: rebuild when a migration is added or changed.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
