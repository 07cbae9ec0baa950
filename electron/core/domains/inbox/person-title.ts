/** A personal name as a note title: two or three capitalised words ("Ana Lopes", "Jean-Luc de Vries"). */
export const PERSON_TITLE = /^\p{Lu}[\p{L}'’.-]+(?:\s+(?:(?:van|von|de|da|del|di|le|la|bin|al)\s+)?\p{Lu}[\p{L}'’.-]+){1,2}$/u;
