import { Lock } from "lucide-react";
import { type Access, CHECKING } from "./use-access";

/**
 * The visible line beside actions the signed-in person may not take: the
 * policy's own sentence ("only leads of the owning team "ml" may edit /ml"),
 * so the disabled buttons are explained without hovering. Nothing when allowed.
 */
/** The policy's clause as a sentence: capitalised, with its full stop. */
const sentence = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

export function AccessNote({ access }: { access: Access }) {
  if (access.allowed || access.reason === CHECKING) return null;
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted" data-testid="access-note">
      <Lock className="size-3.5 shrink-0" aria-hidden />
      <span>{sentence(access.reason)}</span>
    </p>
  );
}
