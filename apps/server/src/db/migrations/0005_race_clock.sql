-- Issue 6 (demo replay): a race's clock may run faster than the wall clock. Its reads are stamped
-- in race time, which is gun + (wall − gun) × clock_rate; 1 for every real race. The demo replays
-- its marathon and 10 km sped up, and an organiser may replay a past race the same way.
ALTER TABLE races ADD COLUMN clock_rate double precision NOT NULL DEFAULT 1 CHECK (clock_rate > 0 AND clock_rate <= 100);
