-- Why a thread was refused, as the game service names it: 'missing_permissions',
-- 'too_many_threads', or 'other' with Discord's error in `code`. Rows kept from before name
-- their reason by the code Discord gave.
ALTER TABLE thread_troubles ADD COLUMN reason TEXT NOT NULL DEFAULT 'other';
UPDATE thread_troubles SET reason = CASE code
    WHEN 50013 THEN 'missing_permissions'
    WHEN 160006 THEN 'too_many_threads'
    ELSE 'other'
END;
