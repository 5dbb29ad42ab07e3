-- Why a thread was refused: see the SQLite migration of the same name.
ALTER TABLE thread_troubles ADD COLUMN reason TEXT NOT NULL DEFAULT 'other';
UPDATE thread_troubles SET reason = CASE code
    WHEN 50013 THEN 'missing_permissions'
    WHEN 160006 THEN 'too_many_threads'
    ELSE 'other'
END;
