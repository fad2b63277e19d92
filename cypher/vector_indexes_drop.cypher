// Drop the four vector indexes (before vectors of another width are swapped in).
DROP INDEX turn_embedding IF EXISTS;
DROP INDEX piece_embedding IF EXISTS;
DROP INDEX fact_embedding IF EXISTS;
DROP INDEX entity_embedding IF EXISTS
