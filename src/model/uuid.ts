/** A canonical UUID in lowercase: the ids of SysRS documents and of the bullets of outline list sections. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The same shape in any case (to tell an uppercase UUID from something else). */
export const UUID_ANY_CASE = new RegExp(UUID.source, 'i');
