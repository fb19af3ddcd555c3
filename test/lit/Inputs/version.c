#include <stdio.h>
#include <string.h>
#include "gpuss.h"
int main(void) {
  printf("%s %d.%d.%d %s\n", GPUSS_VERSION, GPUSS_VERSION_MAJOR, GPUSS_VERSION_MINOR, GPUSS_VERSION_PATCH,
         css_version());
  return strcmp(GPUSS_VERSION, css_version()) != 0;
}
