/** `@peloton/api/first-start`: what the console's start-up runs after migrations. */
export {
  ADMIN_LOGIN,
  DEMO_USERS_TEAM,
  ensureFirstPeople,
  type FirstPeopleOptions,
  type FirstPerson,
} from "./first-people.ts";
