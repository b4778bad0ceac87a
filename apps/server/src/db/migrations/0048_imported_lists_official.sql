-- Issue 43: results imported from an official list are official. The demo's Boston 2017, made
-- from the race's official result list, was left provisional; it is published now, without a
-- protest window, as every Boston-format import is from now on (results/setup.ts
-- createBostonRace). A race its organiser already published keeps its publication.
UPDATE races
   SET rules = rules || jsonb_build_object('publication', jsonb_build_object(
         'publishedAtMs', (extract(epoch FROM now()) * 1000)::bigint,
         'protestWindowMs', 0,
         'source', 'import'))
 WHERE id = 'boston-2017' AND NOT (rules ? 'publication');
