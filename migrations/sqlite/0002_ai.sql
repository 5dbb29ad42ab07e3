-- Games against the built-in AI. `ai_level` is the AI's strength (1 to 5) in a game against it,
-- NULL in a game between members. The AI plays as a member with `is_bot = 1`; such games are
-- never rated.
ALTER TABLE games ADD COLUMN ai_level INTEGER CHECK (ai_level IS NULL OR ai_level BETWEEN 1 AND 5);
