/**
 * The text of a file a person chose in a file input, or what to tell them when it cannot be read
 * (moved, deleted or locked since it was chosen): never a rejection an event handler would drop.
 */
export async function readChosenFile(
  file: Pick<File, 'name' | 'text'>,
): Promise<{ name: string; text: string } | { error: string }> {
  try {
    return { name: file.name, text: await file.text() }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return { error: `Could not read ${file.name}: ${reason} Choose the file again.` }
  }
}
